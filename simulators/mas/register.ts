import type { Context, Hono } from "hono";
import type { MasContext } from "./context.ts";
import { isValid } from "./registration-tokens.ts";

const html = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string);

/** MAS's username rule for local accounts (lower-case localpart characters). */
const USERNAME = /^[a-z0-9._=/-]{1,255}$/;

function page(ctx: MasContext, fields: { username?: string; token?: string; error?: string }): string {
  const tokenField = ctx.options.registrationTokenRequired
    ? `<label>Registration token <input name="token" value="${html(fields.token ?? "")}" autocomplete="off"></label>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Create account – ${html(ctx.options.serverName)}</title></head>
<body><main><h1>Create an account on ${html(ctx.options.serverName)}</h1><p>Simulated Matrix Authentication Service</p>
${fields.error ? `<p role="alert">${html(fields.error)}</p>` : ""}
<form method="post" action="register"><label>Username <input name="username" value="${html(fields.username ?? "")}"></label>
<label>Password <input name="password" type="password"></label>${tokenField}<button type="submit">Continue</button></form></main></body></html>`;
}

/**
 * A one-page stand-in for MAS's registration (`/register` → `/register/password` → … → the token step at
 * `/register/steps/{id}/token`), enough to use a token the way MAS does: trimmed, looked up exactly, valid now,
 * and counted (`times_used + 1`, `last_used_at`) only when the account is created. `?token=` pre-fills the token only
 * with `inviteLinks` (MAS PR #5971); released MAS ignores it.
 */
export function registerRegistrationRoutes(app: Hono, ctx: MasContext): void {
  app.get("/register", (c: Context) => {
    if (!ctx.options.passwordRegistrationEnabled) return c.html(page(ctx, { error: "Registration is disabled" }), 403);
    const token = ctx.options.inviteLinks ? (c.req.query("token") ?? "") : "";
    return c.html(page(ctx, { token }));
  });
  app.post("/register", async (c: Context) => {
    if (!ctx.options.passwordRegistrationEnabled) return c.html(page(ctx, { error: "Registration is disabled" }), 403);
    const form = new URLSearchParams(await c.req.text());
    const username = (form.get("username") ?? "").trim();
    const token = (form.get("token") ?? "").trim();
    const again = (error: string) => c.html(page(ctx, { username, token, error }), 400);
    if (!USERNAME.test(username)) return again("This username is not valid");
    if (ctx.users.some((user) => user.username === username)) return again("This username is already taken");
    if ((form.get("password") ?? "").length < 8) return again("The password is too short");
    let used: string | null = null;
    if (ctx.options.registrationTokenRequired) {
      const row = ctx.registrationTokens.findByToken(token);
      if (!row || !isValid(row, ctx.options.now())) return again("Invalid registration token");
      ctx.registrationTokens.use(row);
      used = row.token;
    }
    ctx.users.push({ username, token: used, createdAt: ctx.options.now() });
    return c.html(
      `<!doctype html><html lang="en"><body><h1>Account created</h1><p>@${html(username)}:${html(ctx.options.serverName)}</p></body></html>`,
      201,
    );
  });
}
