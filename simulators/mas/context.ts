import type { AccessTokens } from "./access-tokens.ts";
import type { ClientAuthMethod, ResolvedMasOptions } from "./options.ts";
import type { RegistrationTokens } from "./registration-tokens.ts";

/** A static client with its defaults applied. */
export interface ClientRecord {
  clientId: string;
  clientSecret: string;
  authMethod: ClientAuthMethod;
  admin: boolean;
  grantTypes: string[];
}

/** An account created through the simulated registration page. */
export interface MasUser {
  username: string;
  /** The registration token used, if any. */
  token: string | null;
  createdAt: number;
}

/** One handled request, for tests. The path has no query string. */
export interface MasRequestLogEntry {
  method: string;
  path: string;
  status: number;
}

/** Everything the route modules of one simulated MAS share. */
export interface MasContext {
  readonly options: ResolvedMasOptions;
  /** The public base URL (issuer), with a trailing slash as MAS's `issuer` has. */
  publicBase(): string;
  readonly clients: Map<string, ClientRecord>;
  readonly accessTokens: AccessTokens;
  readonly registrationTokens: RegistrationTokens;
  readonly users: MasUser[];
  readonly requestLog: MasRequestLogEntry[];
  /** While true every request fails as if MAS were stopped (the test harness closes no socket, see `setDown`). */
  down: boolean;
}
