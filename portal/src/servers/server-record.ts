import type { ServerRow } from "./servers.repository.ts";

/**
 * A managed server as the admin API returns it: every field except the admin token and the MAS client secret
 * (ciphertexts included).
 */
export interface ServerRecord {
  id: string;
  /** `synapse` or `mas`: who holds the server's accounts and registration tokens (issue 23). */
  kind: "synapse" | "mas";
  name: string;
  slug: string;
  serverName: string;
  internalUrl: string;
  publicUrl: string;
  notes: string | null;
  publicDomain: string | null;
  routePrefix: string | null;
  brandingProfileId: string | null;
  registrationMode: string | null;
  managedMode: string | null;
  status: string;
  enabled: boolean;
  isDefault: boolean;
  lastDiagAt: string | null;
  lastDiagOk: boolean | null;
  createdAt: string;
  updatedAt: string;
  /** MAS servers: the MAS base URL the portal calls; null otherwise. */
  masUrl: string | null;
  /** MAS servers: MAS's URL for browsers when it differs from `masUrl`. */
  masPublicUrl: string | null;
  /** MAS servers: the OAuth 2.0 client id (not a secret). */
  masClientId: string | null;
  /** Whether a Synapse admin token is stored (a MAS server may have none). */
  hasAdminToken: boolean;
}

/** What anonymous visitors may learn about a server: no internal URL, no token, no notes. */
export interface PublicServer {
  id: string;
  /** `mas`: accounts are created on the server's MAS, where the sign-up page sends people after checking the token. */
  kind: "synapse" | "mas";
  name: string;
  slug: string;
  serverName: string;
  publicUrl: string;
  brandingProfileId: string | null;
}

export function toServerRecord(row: ServerRow): ServerRecord {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    slug: row.slug,
    serverName: row.server_name,
    internalUrl: row.internal_url,
    publicUrl: row.public_url,
    notes: row.notes,
    publicDomain: row.public_domain,
    routePrefix: row.route_prefix,
    brandingProfileId: row.branding_profile_id,
    registrationMode: row.registration_mode,
    managedMode: row.managed_mode,
    status: row.status,
    enabled: row.enabled === 1,
    isDefault: row.is_default === 1,
    lastDiagAt: row.last_diag_at,
    lastDiagOk: row.last_diag_ok === null ? null : row.last_diag_ok === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    masUrl: row.mas_url,
    masPublicUrl: row.mas_public_url,
    masClientId: row.mas_client_id,
    hasAdminToken: row.admin_token_enc !== "",
  };
}

export function toPublicServer(row: ServerRow): PublicServer {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    slug: row.slug,
    serverName: row.server_name,
    publicUrl: row.public_url,
    brandingProfileId: row.branding_profile_id,
  };
}
