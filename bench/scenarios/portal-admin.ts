/**
 * The bench's administrator of a portal under test: the account both portal scenarios (portal.ts, portal-scale.ts)
 * create through PORTAL_ADMIN_EMAIL/PASSWORD, its login, and a client sending its session cookie with the portal's
 * own origin (state-changing requests are origin-checked).
 */
export const ADMIN_EMAIL = "bench@portal.test";
export const ADMIN_PASSWORD = "bench-admin-password-1";

/** Logs in and returns the `portal_session=…` cookie pair. */
export async function login(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith("portal_session="));
  if (!cookie) throw new Error("login set no session cookie");
  return cookie.split(";")[0] as string;
}

/** `(method, path, body?)` → the JSON answer; throws on any non-2xx status. */
export function adminClient(base: string, cookie: string) {
  return async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
}
