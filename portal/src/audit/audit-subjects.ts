/** What an audit entry's `target` is, by the action's resource (`server.updated` → a server id). */
export type SubjectKind = "server" | "token" | "bot" | "branding" | "integration" | "admin";

const KINDS: Record<string, SubjectKind> = {
  server: "server",
  token: "token",
  bot: "bot",
  branding: "branding",
  integration: "integration",
  auth: "admin",
};

/** The kind of subject an action's target names, or undefined for an action the portal does not know. */
export function subjectKind(action: string): SubjectKind | undefined {
  return KINDS[action.split(".")[0] ?? ""];
}

/**
 * The key of a subject in `audit_names`: `<kind>:<id>`. Registration tokens are names only on their server (two
 * servers may each have a token `welcome`), so their key carries the server: `token:<server id>:<token>`.
 */
export function subjectKey(kind: SubjectKind, target: string, serverId: string | null): string {
  return kind === "token" ? `token:${serverId ?? ""}:${target}` : `${kind}:${target}`;
}
