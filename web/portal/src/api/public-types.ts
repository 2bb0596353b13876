/**
 * Shapes of the portal's public API (shared/specs/portal-api.md, docs/portal.md). Where the portal has a type, it is
 * imported type-only (erased from the bundle), so `tsc` flags any drift between server and page.
 */
import type { SessionUser } from "../../../../portal/src/auth/auth.service.ts";
import type { BrandingSettings, ClientLink } from "../../../../portal/src/branding/branding.schema.ts";
import type { PublicBranding } from "../../../../portal/src/branding/branding.service.ts";
import type { PublicServer } from "../../../../portal/src/servers/server-record.ts";

export type { BrandingSettings, ClientLink, PublicBranding, PublicServer, SessionUser };

export interface Session {
  authenticated: boolean;
  user?: SessionUser;
  demo?: boolean;
}

export type UsernameVerdict = { available: true; username: string } | { available: false; errorCode: string; error: string };

export interface SignUpInput {
  username: string;
  password: string;
  confirmPassword: string;
  token: string;
  displayName?: string;
  serverId: string;
}
