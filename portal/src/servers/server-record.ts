import type { ServerRow } from "./servers.repository.ts";

/** A managed server as the admin API returns it: every field except the admin token (ciphertext included). */
export interface ServerRecord {
  id: string;
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
}

/** What anonymous visitors may learn about a server: no internal URL, no token, no notes. */
export interface PublicServer {
  id: string;
  name: string;
  slug: string;
  serverName: string;
  publicUrl: string;
  brandingProfileId: string | null;
}

export function toServerRecord(row: ServerRow): ServerRecord {
  return {
    id: row.id,
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
  };
}

export function toPublicServer(row: ServerRow): PublicServer {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    serverName: row.server_name,
    publicUrl: row.public_url,
    brandingProfileId: row.branding_profile_id,
  };
}
