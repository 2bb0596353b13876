import { randomUUID } from "node:crypto";
import { conflict, HttpError, notFound } from "../../../lib/http-error.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import { uniqueViolation } from "../db/constraints.ts";
import type { DiagnosticsResult, DiagnosticsService } from "../diagnostics/diagnostics.service.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import { type ServerRecord, toServerRecord } from "./server-record.ts";
import type { ServerChanges, ServerRow, ServersRepository } from "./servers.repository.ts";
import type { CreateServerInput, ServerAction, UpdateServerInput } from "./servers.schema.ts";

const FIELD_COLUMNS = {
  name: "name",
  slug: "slug",
  serverName: "server_name",
  internalUrl: "internal_url",
  publicUrl: "public_url",
  notes: "notes",
  publicDomain: "public_domain",
  routePrefix: "route_prefix",
  brandingProfileId: "branding_profile_id",
  registrationMode: "registration_mode",
  managedMode: "managed_mode",
  kind: "kind",
  masUrl: "mas_url",
  masPublicUrl: "mas_public_url",
  masClientId: "mas_client_id",
} as const satisfies Record<string, keyof ServerChanges>;

/** Same scheme, host and port (default ports included): where the admin token may keep going. */
const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

const CONFLICTS: Record<string, string> = {
  slug: "Another server already uses this slug",
  public_domain: "Another server already uses this public domain",
};

/** A UNIQUE violation on slug or public domain, as the 409 the admin should see. */
function asConflict(error: unknown): never {
  const message = CONFLICTS[uniqueViolation(error) ?? ""];
  throw message === undefined ? error : conflict(message);
}

/**
 * Managed servers: CRUD, the state machine (draft → active ⇄ disabled, one default), token rotation and stored
 * diagnostics. Every change is audited with the acting admin and IP.
 */
export class ServersService {
  private readonly deletedHooks: ((serverId: string) => Promise<void>)[] = [];

  constructor(
    private readonly repository: ServersRepository,
    private readonly connector: HomeserverConnector,
    private readonly diagnostics: DiagnosticsService,
    private readonly audit: AuditService,
    private readonly now: () => number,
    /** Whether a branding profile exists (a server may only link to one that does). */
    private readonly brandingExists: (id: string) => Promise<boolean> = async () => true,
  ) {}

  async list(): Promise<ServerRecord[]> {
    return (await this.repository.list()).map(toServerRecord);
  }

  /** The row of a server, or 404. For other services that act on one server. */
  async requireRow(id: string): Promise<ServerRow> {
    const row = await this.repository.find(id);
    if (!row) throw notFound(`No managed server with id ${id}`);
    return row;
  }

  async get(id: string): Promise<ServerRecord> {
    return toServerRecord(await this.requireRow(id));
  }

  /**
   * Creates a server as a disabled draft; the first server becomes the default. Before saving, the diagnostics check
   * that a Matrix homeserver answers at the internal URL and takes the admin token (422 with what failed otherwise,
   * nothing stored); their result is stored as the server's last diagnostics. `saveAnyway` skips the check: the
   * server is stored unchecked (`lastDiagAt` null) and the audit entry says so.
   */
  async create(
    input: CreateServerInput,
    actor: AuditActor,
    options: { saveAnyway?: boolean } = {},
  ): Promise<{ server: ServerRecord; diagnostics?: DiagnosticsResult }> {
    this.connector.assertAllowedUrl(input.internalUrl);
    await this.assertBranding(input.brandingProfileId);
    // Conflicts first: the check can take seconds, and a slug already taken fails anyway (the insert checks again).
    if (await this.repository.findBy("slug", input.slug)) throw conflict(CONFLICTS.slug as string);
    if (input.publicDomain !== null && (await this.repository.findBy("public_domain", input.publicDomain))) {
      throw conflict(CONFLICTS.public_domain as string);
    }
    const id = randomUUID();
    const mas = input.kind === "mas";
    if (mas) this.connector.assertAllowedMasUrl(input.masUrl as string);
    // A MAS server needs no Synapse admin token: "" stands for none (migration 0011).
    const adminTokenEnc = input.adminToken === undefined ? "" : this.connector.sealAdminToken(id, input.adminToken);
    const masColumns = {
      kind: input.kind,
      mas_url: mas ? (input.masUrl ?? null) : null,
      mas_public_url: mas ? input.masPublicUrl : null,
      mas_client_id: mas ? (input.masClientId ?? null) : null,
      mas_client_secret_enc: mas ? this.connector.mas.sealClientSecret(id, input.masClientSecret as string) : null,
    };
    let diagnostics: DiagnosticsResult | undefined;
    if (!options.saveAnyway) {
      const check = await this.diagnostics.checkConnection({
        id,
        internal_url: input.internalUrl,
        admin_token_enc: adminTokenEnc,
        server_name: input.serverName,
        ...masColumns,
      });
      if (check.failure) throw new HttpError(422, check.failure.message, check.failure.code);
      diagnostics = check.result;
    }
    const ok = diagnostics ? this.diagnostics.isHealthy(diagnostics) : undefined;
    const nowIso = this.isoNow();
    const row = await this.repository
      .insertWithDefault({
        id,
        name: input.name,
        slug: input.slug,
        server_name: input.serverName,
        internal_url: input.internalUrl,
        public_url: input.publicUrl,
        admin_token_enc: adminTokenEnc,
        notes: input.notes,
        public_domain: input.publicDomain,
        route_prefix: input.routePrefix,
        branding_profile_id: input.brandingProfileId,
        registration_mode: null,
        managed_mode: null,
        status: "draft",
        enabled: 0,
        last_diag_at: diagnostics?.checkedAt ?? null,
        last_diag_ok: ok === undefined ? null : ok ? 1 : 0,
        token_rotated_at: null,
        created_at: nowIso,
        updated_at: nowIso,
        ...masColumns,
      })
      .catch(asConflict);
    await this.audit.record(actor, {
      action: "server.created",
      serverId: id,
      target: id,
      detail: {
        name: row.name,
        slug: row.slug,
        ...(row.kind === "mas" ? { kind: "mas" } : {}),
        isDefault: row.is_default === 1,
        checked: diagnostics !== undefined,
        ...(ok === undefined ? {} : { ok }),
      },
    });
    return diagnostics ? { server: toServerRecord(row), diagnostics } : { server: toServerRecord(row) };
  }

  /**
   * Changes fields. The stored admin token is only ever sent to the origin it was given for: an `internalUrl` on
   * another scheme, host or port needs `adminToken` too (400 `ADMIN_TOKEN_REQUIRED` otherwise, nothing changed),
   * and the new token replaces the old one (audited as a rotation as well). The MAS client secret likewise
   * (masCredentials): a new MAS origin or client id needs `masClientSecret`. Changing `kind` checks that the new kind
   * has its credentials.
   */
  async update(id: string, input: UpdateServerInput, actor: AuditActor): Promise<ServerRecord> {
    const current = await this.requireRow(id);
    const kind = input.kind ?? current.kind;
    const changes: ServerChanges = { updated_at: this.isoNow() };
    const fields: string[] = [];
    const rotated: string[] = [];
    if (input.internalUrl !== undefined) {
      this.connector.assertAllowedUrl(input.internalUrl);
      if (
        input.adminToken === undefined &&
        current.admin_token_enc !== "" &&
        !sameOrigin(input.internalUrl, current.internal_url)
      ) {
        if (kind === "synapse") {
          throw new HttpError(
            400,
            "The new internal URL is on another host (scheme, host or port): give that homeserver's admin token with it (adminToken). The stored token is never sent to a new host.",
            "ADMIN_TOKEN_REQUIRED",
          );
        }
        // A MAS server does not use the token: it is forgotten rather than sent to the new host.
        changes.admin_token_enc = "";
        fields.push("adminToken");
      }
    }
    if (kind === "synapse" && current.admin_token_enc === "" && input.adminToken === undefined) {
      throw new HttpError(
        400,
        "A Synapse server needs its admin token: give adminToken with kind synapse",
        "ADMIN_TOKEN_REQUIRED",
      );
    }
    this.masCredentials(current, kind, input, changes, rotated);
    await this.assertBranding(input.brandingProfileId);
    for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
      const value = input[field as keyof typeof FIELD_COLUMNS];
      if (value === undefined) continue;
      (changes as Record<string, unknown>)[column] = value;
      fields.push(field);
    }
    if (input.adminToken !== undefined) {
      changes.admin_token_enc = this.connector.sealAdminToken(id, input.adminToken);
      fields.push("adminToken");
      rotated.push("adminToken");
    }
    if (rotated.length > 0) changes.token_rotated_at = changes.updated_at;
    const row = await this.repository.updateAt(id, current.internal_url, changes).catch(asConflict);
    if (!row) {
      await this.requireRow(id);
      throw conflict("The server's internal URL changed meanwhile: reload it and try again");
    }
    await this.audit.record(actor, { action: "server.updated", serverId: id, target: id, detail: { fields } });
    for (const credential of rotated) {
      await this.audit.record(actor, {
        action: "server.token.rotated",
        serverId: id,
        target: id,
        detail:
          credential === "adminToken"
            ? { origin: new URL(row.internal_url).origin }
            : { credential, origin: new URL(row.mas_url as string).origin },
      });
    }
    return toServerRecord(row);
  }

  /**
   * The MAS columns of an update (into `changes`). For kind `mas` the MAS URL, client id and secret must all be known
   * afterwards, and the stored secret only goes on being used for the origin and client it was given for: a MAS URL
   * on another origin, or another client id, needs `masClientSecret` (400 `MAS_SECRET_REQUIRED`). Leaving kind `mas`
   * clears the MAS columns; giving MAS fields to a Synapse server is refused.
   */
  private masCredentials(
    current: ServerRow,
    kind: "synapse" | "mas",
    input: UpdateServerInput,
    changes: ServerChanges,
    rotated: string[],
  ): void {
    const given = input.masUrl ?? input.masClientId ?? input.masClientSecret ?? input.masPublicUrl;
    if (kind === "synapse") {
      if (given !== undefined) {
        throw new HttpError(
          400,
          "masUrl, masPublicUrl, masClientId and masClientSecret belong to servers of kind mas",
          "BAD_REQUEST",
        );
      }
      if (current.kind === "mas") {
        Object.assign(changes, { mas_url: null, mas_public_url: null, mas_client_id: null, mas_client_secret_enc: null });
      }
      return;
    }
    const masUrl = input.masUrl ?? current.mas_url;
    const clientId = input.masClientId ?? current.mas_client_id;
    if (!masUrl || !clientId) {
      throw new HttpError(400, "A server of kind mas needs masUrl, masClientId and masClientSecret", "BAD_REQUEST");
    }
    if (input.masUrl !== undefined) this.connector.assertAllowedMasUrl(input.masUrl);
    const secretStillFits =
      current.mas_client_secret_enc !== null &&
      current.mas_url !== null &&
      sameOrigin(masUrl, current.mas_url) &&
      clientId === current.mas_client_id;
    if (input.masClientSecret === undefined && !secretStillFits) {
      throw new HttpError(
        400,
        "Give the OAuth client's secret (masClientSecret) with a new MAS URL host or client id: the stored secret is only sent where it was given for.",
        "MAS_SECRET_REQUIRED",
      );
    }
    if (input.masClientSecret !== undefined) {
      changes.mas_client_secret_enc = this.connector.mas.sealClientSecret(current.id, input.masClientSecret);
      rotated.push("masClientSecret");
    }
  }

  /** PATCH actions. `diagnostics` also answers the full result. */
  async act(
    id: string,
    action: ServerAction,
    actor: AuditActor,
  ): Promise<{ server: ServerRecord; diagnostics?: DiagnosticsResult }> {
    const row = await this.requireRow(id);
    const updatedAt = this.isoNow();
    switch (action.action) {
      case "enable":
        await this.repository.update(id, { enabled: 1, status: "active", updated_at: updatedAt });
        await this.audit.record(actor, { action: "server.enabled", serverId: id, target: id });
        break;
      case "disable":
        // A draft that was never enabled stays a draft; an active server becomes disabled.
        await this.repository.update(id, {
          enabled: 0,
          status: row.status === "draft" ? "draft" : "disabled",
          updated_at: updatedAt,
        });
        await this.audit.record(actor, { action: "server.disabled", serverId: id, target: id });
        break;
      case "set_default": {
        const previous = await this.repository.setDefault(id, updatedAt);
        await this.audit.record(actor, {
          action: "server.default.changed",
          serverId: id,
          target: id,
          detail: { previousDefault: previous ?? null },
        });
        break;
      }
      case "rotate_token":
        await this.repository.update(id, {
          admin_token_enc: this.connector.sealAdminToken(id, action.adminToken),
          token_rotated_at: updatedAt,
          updated_at: updatedAt,
        });
        await this.audit.record(actor, { action: "server.token.rotated", serverId: id, target: id });
        break;
      case "rotate_mas_secret":
        if (row.kind !== "mas") throw new HttpError(409, "Only a server of kind mas has a MAS client secret", "CONFLICT");
        await this.repository.update(id, {
          mas_client_secret_enc: this.connector.mas.sealClientSecret(id, action.masClientSecret),
          token_rotated_at: updatedAt,
          updated_at: updatedAt,
        });
        await this.audit.record(actor, {
          action: "server.token.rotated",
          serverId: id,
          target: id,
          detail: { credential: "masClientSecret" },
        });
        break;
      case "diagnostics": {
        const diagnostics = await this.diagnostics.run(row);
        const ok = this.diagnostics.isHealthy(diagnostics);
        await this.repository.update(id, { last_diag_at: diagnostics.checkedAt, last_diag_ok: ok ? 1 : 0 });
        await this.audit.record(actor, { action: "server.diagnostics.run", serverId: id, target: id, detail: { ok } });
        return { server: await this.get(id), diagnostics };
      }
    }
    return { server: await this.get(id) };
  }

  /** Runs `hook` after a server was deleted (its rows are gone by then), e.g. to remove files it left. */
  onDeleted(hook: (serverId: string) => Promise<void>): void {
    this.deletedHooks.push(hook);
  }

  /**
   * Deletes a disabled, non-default server (409 otherwise), with its token metadata, bots and integrations (their
   * generated files too, through the `onDeleted` hooks); the audit log stays.
   */
  async delete(id: string, actor: AuditActor): Promise<void> {
    const row = await this.requireRow(id);
    if (row.enabled === 1) throw new HttpError(409, "Disable the server before deleting it", "CONFLICT");
    if (row.is_default === 1) throw new HttpError(409, "Make another server the default before deleting this one", "CONFLICT");
    if (!(await this.repository.deleteIfRemovable(id))) {
      throw new HttpError(409, "The server changed meanwhile (enabled or made default); not deleted", "CONFLICT");
    }
    this.connector.mas.accessTokens.forget(id);
    for (const hook of this.deletedHooks) await hook(id);
    await this.audit.record(actor, {
      action: "server.deleted",
      serverId: id,
      target: id,
      detail: { name: row.name, slug: row.slug },
    });
  }

  private async assertBranding(id: string | null | undefined): Promise<void> {
    if (id != null && !(await this.brandingExists(id)))
      throw new HttpError(400, `No branding profile with id ${id}`, "BAD_REQUEST");
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
