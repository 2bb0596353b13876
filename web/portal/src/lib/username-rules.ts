/**
 * The sign-up username rules as the portal applies them (registration.schema.ts): trimmed and lower-cased, then
 * `[a-z0-9._=-]`, not starting with `_`, not digits only, and the whole `@name:server` at most 255 characters.
 * Returns the normalised name and the first broken rule's key (a key of the strings' `username` section).
 */
export type UsernameProblem = "empty" | "characters" | "underscore" | "digits" | "length";

export function checkUsername(raw: string, serverName: string): { name: string; problem: UsernameProblem | null } {
  const name = raw.trim().toLowerCase();
  if (name === "") return { name, problem: "empty" };
  if (!/^[a-z0-9._=-]+$/.test(name)) return { name, problem: "characters" };
  if (name.startsWith("_")) return { name, problem: "underscore" };
  if (/^\d+$/.test(name)) return { name, problem: "digits" };
  if (`@${name}:${serverName}`.length > 255) return { name, problem: "length" };
  return { name, problem: null };
}
