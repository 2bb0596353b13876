/**
 * Shapes of the portal's public API (shared/specs/portal-api.md, docs/portal.md). Where the portal has a type, it comes
 * from the portal's contract (`portal/src/contract.ts`, type-only here), so `tsc` flags any drift between server and
 * page.
 */
import type {
  BrandingSettings,
  ClientLink,
  PublicBranding,
  PublicServer,
  SessionUser,
  TokenValidity,
  TokenVerdict,
} from "../../../../portal/src/contract.ts";

export type { BrandingSettings, ClientLink, PublicBranding, PublicServer, SessionUser, TokenVerdict };

/** `POST /api/register/validate-token` (`state` and `expiresAt` absent from portals before issue 23). */
export type TokenValidityAnswer = Pick<TokenValidity, "valid"> & Partial<Omit<TokenValidity, "valid">>;

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
