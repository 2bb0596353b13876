import type { Context, Hono } from "hono";
import type { MasContext } from "./context.ts";
import { OAuthError } from "./errors.ts";

/** Reads `client_id:client_secret` from `Authorization: Basic`, form-url-decoding both halves (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

/**
 * `POST /oauth2/token` for the client credentials grant (crates/handlers/src/oauth2/token.rs), in MAS's order:
 * client authentication (401 `invalid_client`), then the form (400 `invalid_request`), the grant type
 * (400 `unsupported_grant_type`, 401 `unauthorized_client`), then the policy (403 `invalid_scope`
 * "scope '…' not allowed": `urn:mas:admin` only for clients in `policy.data.admin_clients`). The answer is
 * `{access_token, token_type: "Bearer", expires_in, scope}` with no refresh token, and `Cache-Control: no-store`.
 */
async function token(ctx: MasContext, c: Context): Promise<Response> {
  const form = new URLSearchParams(await c.req.text());
  const basic = basicCredentials(c.req.header("authorization"));
  const formId = form.get("client_id") ?? undefined;
  const formSecret = form.get("client_secret") ?? undefined;
  const clientId = basic?.id ?? formId;
  // [approximate] A request naming no client at all fails in the credentials extractor.
  if (clientId === undefined) throw new OAuthError(400, "invalid_request");
  const client = ctx.clients.get(clientId);
  if (!client) throw new OAuthError(401, "invalid_client");
  const presented = client.authMethod === "client_secret_basic" ? basic?.secret : basic ? undefined : formSecret;
  if (presented !== client.clientSecret) throw new OAuthError(401, "invalid_client");

  const grantType = form.get("grant_type");
  if (grantType === null) throw new OAuthError(400, "invalid_request");
  if (grantType !== "client_credentials") {
    const known = ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"];
    throw known.includes(grantType) ? new OAuthError(401, "unauthorized_client") : new OAuthError(400, "unsupported_grant_type");
  }
  if (!client.grantTypes.includes("client_credentials")) throw new OAuthError(401, "unauthorized_client");

  const scope = (form.get("scope") ?? "").split(" ").filter((part) => part !== "");
  const refused = scope.filter((part) => !(part === "openid" || part === "email" || (part === "urn:mas:admin" && client.admin)));
  if (refused.length > 0) {
    throw new OAuthError(403, "invalid_scope", refused.map((part) => `scope '${part}' not allowed`).join(", "));
  }
  const ttl = ctx.options.accessTokenTtl;
  const issued = ctx.accessTokens.issue(client.clientId, scope, ctx.options.now() + ttl * 1000);
  c.header("Cache-Control", "no-store");
  c.header("Pragma", "no-cache");
  return c.json({
    access_token: issued.token,
    token_type: "Bearer",
    expires_in: ttl,
    ...(scope.length > 0 ? { scope: scope.join(" ") } : {}),
  });
}

/** `/.well-known/openid-configuration` (crates/handlers/src/oauth2/discovery.rs): the fields clients and the portal read. */
function discovery(ctx: MasContext): Record<string, unknown> {
  const issuer = ctx.publicBase();
  return {
    issuer,
    authorization_endpoint: `${issuer}authorize`,
    token_endpoint: `${issuer}oauth2/token`,
    jwks_uri: `${issuer}oauth2/keys.json`,
    registration_endpoint: `${issuer}oauth2/registration`,
    scopes_supported: ["openid", "email"],
    response_types_supported: ["code", "id_token", "code id_token"],
    response_modes_supported: ["form_post", "query", "fragment"],
    grant_types_supported: [
      "authorization_code",
      "refresh_token",
      "client_credentials",
      "urn:ietf:params:oauth:grant-type:device_code",
    ],
    token_endpoint_auth_methods_supported: [
      "client_secret_basic",
      "client_secret_post",
      "client_secret_jwt",
      "private_key_jwt",
      "none",
    ],
    revocation_endpoint: `${issuer}oauth2/revoke`,
    introspection_endpoint: `${issuer}oauth2/introspect`,
    userinfo_endpoint: `${issuer}oauth2/userinfo`,
    device_authorization_endpoint: `${issuer}oauth2/device`,
    code_challenge_methods_supported: ["plain", "S256"],
    account_management_uri: `${issuer}account/`,
    account_management_actions_supported: ["org.matrix.profile", "org.matrix.sessions_list", "org.matrix.session_view"],
    // Advertised only while password registration is on (discovery.rs).
    ...(ctx.options.passwordRegistrationEnabled ? { prompt_values_supported: ["none", "login", "create"] } : {}),
  };
}

export function registerOAuthRoutes(app: Hono, ctx: MasContext): void {
  app.post("/oauth2/token", (c) => token(ctx, c));
  app.get("/.well-known/openid-configuration", (c) => c.json(discovery(ctx)));
}
