import type { Context, Hono } from "hono";
import { hasAccessToken, requireUser } from "./auth.ts";
import { route } from "./request.ts";
import type { SimulatorContext } from "./state.ts";

/** What Synapse sends with unauthenticated `/versions` and the OAuth discovery documents. */
const PUBLIC_CACHE = "public, max-age=600, s-maxage=3600, stale-while-revalidate=600";

/** The spec versions Synapse 1.157 advertises (synapse/rest/client/versions.py). */
const SPEC_VERSIONS = [
  ...["r0.0.1", "r0.1.0", "r0.2.0", "r0.3.0", "r0.4.0", "r0.5.0", "r0.6.0", "r0.6.1"],
  ...["v1.1", "v1.2", "v1.3", "v1.4", "v1.5", "v1.6", "v1.7", "v1.8", "v1.9", "v1.10", "v1.11", "v1.12"],
];

/**
 * The OAuth 2.0 server metadata (RFC 8414) that Synapse relays from MAS at `/auth_metadata`: the fields a client and
 * the portal's diagnostics look at, for the configured issuer (an imaginary MAS at `https://auth.<server name>/`
 * unless the simulator was told otherwise).
 */
function authMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}authorize`,
    token_endpoint: `${issuer}oauth2/token`,
    registration_endpoint: `${issuer}oauth2/registration`,
    revocation_endpoint: `${issuer}oauth2/revoke`,
    introspection_endpoint: `${issuer}oauth2/introspect`,
    device_authorization_endpoint: `${issuer}oauth2/device`,
    jwks_uri: `${issuer}oauth2/keys.json`,
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
    code_challenge_methods_supported: ["S256"],
    account_management_uri: `${issuer}account/`,
    account_management_actions_supported: ["org.matrix.profile", "org.matrix.sessions_list", "org.matrix.session_view"],
    prompt_values_supported: ["create"],
  };
}

/** Discovery and server-info endpoints. */
export function registerDiscoveryRoutes(app: Hono, ctx: SimulatorContext): void {
  /**
   * `VersionsRestServlet`: no auth needed; a token, when sent, must be valid. Unauthenticated answers are cacheable.
   */
  route(app, "/_matrix/client/versions", {
    GET: (c) => {
      if (hasAccessToken(c)) requireUser(ctx.state, c);
      else c.header("Cache-Control", PUBLIC_CACHE);
      c.header("Vary", "Authorization");
      return c.json({
        versions: SPEC_VERSIONS,
        unstable_features: {
          "org.matrix.label_based_filtering": true,
          "org.matrix.e2e_cross_signing": true,
          "org.matrix.msc2432": true,
          "org.matrix.msc3827.stable": true,
          "org.matrix.msc3440.stable": true,
          "fi.mau.msc2659.stable": true,
          "uk.tcpip.msc4133.stable": true,
        },
      });
    },
  });

  /** `VersionServlet` (synapse/rest/admin/__init__.py): no auth; `python_version` was removed in Synapse 1.94. */
  route(app, "/_synapse/admin/v1/server_version", {
    GET: (c) => c.json({ server_version: ctx.options.serverVersion }),
  });

  /**
   * `AuthMetadataServlet` (synapse/rest/client/auth_metadata.py), stable v1 and unstable MSC2965 paths. Synapse only
   * registers it when MAS / MSC3861 is enabled, so otherwise it is an unknown path: 404 `M_UNRECOGNIZED`.
   */
  const delegated = () => ctx.state.settings.delegatedAuth;
  const metadata = {
    GET: (c: Context) => {
      c.header("Cache-Control", PUBLIC_CACHE);
      return c.json(authMetadata(ctx.options.authIssuer));
    },
  };
  route(app, "/_matrix/client/v1/auth_metadata", metadata, delegated);
  route(app, "/_matrix/client/unstable/org.matrix.msc2965/auth_metadata", metadata, delegated);
  /** `AuthIssuerServlet`, the older MSC2965 discovery. */
  route(
    app,
    "/_matrix/client/unstable/org.matrix.msc2965/auth_issuer",
    {
      GET: (c) => {
        c.header("Cache-Control", PUBLIC_CACHE);
        return c.json({ issuer: ctx.options.authIssuer });
      },
    },
    delegated,
  );

  /**
   * `ClientWellKnownResource` (synapse/rest/well_known.py), registered only with `serve_client_wellknown`: the
   * homeserver's public base URL and, under MAS, the issuer and account page (`org.matrix.msc2965.authentication`).
   */
  if (ctx.options.serveClientWellKnown) {
    route(app, "/.well-known/matrix/client", {
      GET: (c) => {
        c.header("Cache-Control", "public, max-age=3600");
        const issuer = ctx.options.authIssuer;
        return c.json({
          "m.homeserver": { base_url: ctx.options.publicBaseurl },
          ...(delegated() ? { "org.matrix.msc2965.authentication": { issuer, account: `${issuer}account/` } } : {}),
        });
      },
    });
  }

  /** `HealthResource` (synapse/rest/health.py): plain `OK` on every listener. */
  app.get("/health", (c) => c.text("OK"));
}
