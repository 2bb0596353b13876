import type { Insertable } from "kysely";
import type { Database } from "../db/schema.ts";

/**
 * A draft Synapse server row for repository tests (id, name, slug and host names from `id`, `now` as both
 * timestamps). Only tests import it: the columns the schema adds later get their default here once.
 */
export const serverRow = (id: string, now: string) =>
  ({
    id,
    name: id,
    slug: id,
    server_name: `${id}.test`,
    internal_url: `http://${id}.test`,
    public_url: `https://${id}.test`,
    admin_token_enc: "v1:x",
    notes: null,
    public_domain: null,
    route_prefix: null,
    branding_profile_id: null,
    registration_mode: null,
    managed_mode: null,
    status: "draft",
    enabled: 0,
    last_diag_at: null,
    last_diag_ok: null,
    token_rotated_at: null,
    created_at: now,
    updated_at: now,
    kind: "synapse",
    mas_url: null,
    mas_public_url: null,
    mas_client_id: null,
    mas_client_secret_enc: null,
  }) satisfies Omit<Insertable<Database["servers"]>, "is_default">;
