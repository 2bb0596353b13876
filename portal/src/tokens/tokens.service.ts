import { HttpError } from "../../../lib/http-error.ts";
import { parseOr400 } from "../../../lib/validate.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import type { HomeserverConnector, ServerConnection } from "../homeserver/connector.ts";
import { type HomeserverToken, RegistrationTokensApi } from "../homeserver/registration-tokens-api.ts";
import type { ServersService } from "../servers/servers.service.ts";
import { readableToken } from "./readable-token.ts";
import { SingleFlight } from "./single-flight.ts";
import { tokenState } from "./token-state.ts";
import type { TokenMetadataRow, TokensRepository } from "./tokens.repository.ts";
import { type BatchTokensInput, type CreateTokenInput, TokenString, type UpdateTokenInput } from "./tokens.schema.ts";

/** A registration token as the admin API returns it: the homeserver's fields, local metadata and the portal's verdict. */
export interface TokenRecord extends HomeserverToken {
  label: string | null;
  note: string | null;
  /** Disabled through the portal (PATCH) or `uses_allowed: 0` on the homeserver: refused at sign-up. */
  disabled: boolean;
  /** Usable for a sign-up right now (not disabled, expired or used up). */
  valid: boolean;
}

/** A batch that failed part-way: the homeserver's error, and how many tokens it left (they stay, labelled). */
function batchFailed(error: unknown, created: number, input: BatchTokensInput): unknown {
  if (!(error instanceof HttpError)) return error;
  const kept =
    created === 0
      ? "No token was created."
      : `${created} of ${input.count} tokens were created before this; they carry the label “${input.label}”.`;
  return new HttpError(error.status, `${error.message}. ${kept}`, error.code, error.headers);
}

const noSuchToken = (token: string) => new HttpError(404, `No such registration token: ${token}`, "M_NOT_FOUND");

/** How many tokens of a batch are created on the homeserver at once. */
const BATCH_PARALLEL = 4;

/** How long a token list answer is shared after the homeserver gave it (ms). */
export const LIST_KEEP_MS = 1_000;

/**
 * Registration tokens of one managed server: the homeserver holds them (Synapse's admin API), the portal adds a
 * label, a note and a disabled flag. Homeserver failures surface as described in homeserver-errors.ts.
 */
export class TokensService {
  constructor(
    private readonly servers: ServersService,
    private readonly connector: HomeserverConnector,
    private readonly repository: TokensRepository,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  /**
   * List calls per server id, in flight and for a second after they answered: admin pages poll and open in bursts,
   * and each list is a homeserver call plus a merge. A second is below what a person can notice on a usage count;
   * every change made through the portal (token writes here, sign-ups through {@link forget}) ends it at once.
   */
  private readonly lists = new SingleFlight<readonly TokenRecord[]>({
    keepMs: LIST_KEEP_MS,
    // Pages that keep asking are answered from the kept list while its successor loads: they never wait for the
    // homeserver, and no answer is older than LIST_KEEP_MS.
    refreshAfterMs: LIST_KEEP_MS / 2,
    now: () => this.now(),
  });

  /**
   * Every token on the homeserver with its metadata; metadata of tokens gone from the homeserver is deleted.
   *
   * Concurrent calls for one server share one homeserver call and one merge (many admin pages at once, the
   * dashboard's statistics) and for a second after it answered, so the answer is shared too: callers must not modify
   * it. A token write through this service, and a sign-up through the portal, end the sharing when they are done (see
   * `written` and {@link forget}): a list asked for after them never answers from before them. Uses made on the
   * homeserver directly show within a second.
   */
  async list(serverId: string): Promise<readonly TokenRecord[]> {
    const server = await this.servers.requireRow(serverId);
    // A server whose URL or admin token changed meanwhile is asked again, not answered from the old call.
    return this.lists.run(serverId, `${server.internal_url} ${server.admin_token_enc}`, () => this.load(server));
  }

  private async load(server: ServerConnection): Promise<TokenRecord[]> {
    const api = this.apiFor(server);
    // Rows written after this instant may belong to a token created meanwhile: they are not orphans yet.
    const askedAt = this.isoNow();
    const [tokens, rows] = await Promise.all([api.list(), this.repository.listForServer(server.id)]);
    const metadata = new Map(rows.map((row) => [row.token, row]));
    const present = new Set(tokens.map((token) => token.token));
    const orphans = rows.filter((row) => !present.has(row.token)).map((row) => row.token);
    if (orphans.length > 0) await this.repository.deleteStale(server.id, orphans, askedAt);
    const now = this.now();
    return tokens.map((token) => this.merge(token, metadata.get(token.token), now));
  }

  async get(serverId: string, token: string): Promise<TokenRecord> {
    const name = parseOr400(TokenString, token, "token");
    const api = await this.api(serverId);
    const askedAt = this.isoNow();
    const found = await api.get(name);
    if (!found) {
      await this.repository.deleteStale(serverId, [name], askedAt);
      throw noSuchToken(name);
    }
    return this.merge(found, await this.repository.find(serverId, name));
  }

  async create(serverId: string, input: CreateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, () => this.createNow(serverId, input, actor));
  }

  private async createNow(serverId: string, input: CreateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    const api = await this.api(serverId);
    this.assertFuture(input.expiry_time);
    const explicit = input.token ? { token: input.token } : { length: input.length ?? 16 };
    const created = await api.create({ ...explicit, uses_allowed: input.uses_allowed, expiry_time: input.expiry_time });
    // Always (re)write the row: metadata left by an earlier token of the same name must not carry over.
    await this.repository.upsert(
      serverId,
      created.token,
      { label: input.label || null, note: input.note || null, disabled: false },
      this.isoNow(),
    );
    await this.audit.record(actor, {
      action: "token.created",
      serverId,
      target: created.token,
      detail: { uses_allowed: created.uses_allowed, expiry_time: created.expiry_time, label: input.label || null },
    });
    return this.merge(created, await this.repository.find(serverId, created.token));
  }

  /**
   * `count` one-use tokens generated by the portal, all with `label` (and `note`, `expiry_time`), in order. Each is
   * audited as `token.created`, the batch once more as `token.batch.created` (target: the label). When the
   * homeserver fails part-way, the tokens made so far stay (labelled, listed) and the error says how many there are.
   */
  async createBatch(
    serverId: string,
    input: BatchTokensInput,
    actor: AuditActor,
  ): Promise<{ label: string; tokens: TokenRecord[] }> {
    return this.written(serverId, async () => {
      await this.servers.requireRow(serverId);
      this.assertFuture(input.expiry_time);
      const made: (TokenRecord | undefined)[] = new Array(input.count);
      let failure: unknown;
      let next = 0;
      const worker = async () => {
        while (failure === undefined && next < input.count) {
          const index = next++;
          const one = { token: readableToken(input.length), uses_allowed: 1, expiry_time: input.expiry_time };
          try {
            made[index] = await this.createNow(serverId, { ...one, label: input.label, note: input.note ?? null }, actor);
          } catch (error) {
            failure ??= error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(BATCH_PARALLEL, input.count) }, worker));
      const tokens = made.filter((token): token is TokenRecord => token !== undefined);
      await this.audit.record(actor, {
        action: "token.batch.created",
        serverId,
        target: input.label,
        detail: { requested: input.count, created: tokens.length, expiry_time: input.expiry_time },
      });
      if (failure !== undefined) throw batchFailed(failure, tokens.length, input);
      return { label: input.label, tokens };
    });
  }

  /**
   * Changes homeserver fields (`uses_allowed`, `expiry_time`) and/or metadata. Giving `uses_allowed` to a
   * disabled token enables it again (it replaces the 0 that disabling wrote on the homeserver).
   */
  async update(serverId: string, token: string, input: UpdateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, () => this.updateNow(serverId, token, input, actor));
  }

  private async updateNow(serverId: string, token: string, input: UpdateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    const name = parseOr400(TokenString, token, "token");
    const api = await this.api(serverId);
    if (input.expiry_time !== undefined) this.assertFuture(input.expiry_time);
    const homeserverFields = {
      ...(input.uses_allowed === undefined ? {} : { uses_allowed: input.uses_allowed }),
      ...(input.expiry_time === undefined ? {} : { expiry_time: input.expiry_time }),
    };
    const updated = Object.keys(homeserverFields).length > 0 ? await api.update(name, homeserverFields) : await api.get(name);
    if (!updated) throw noSuchToken(name);
    const before = await this.repository.find(serverId, name);
    const reenabled = input.uses_allowed !== undefined && before?.disabled === 1;
    await this.repository.upsert(
      serverId,
      name,
      {
        ...(input.label === undefined ? {} : { label: input.label || null }),
        ...(input.note === undefined ? {} : { note: input.note || null }),
        ...(reenabled ? { disabled: false } : {}),
      },
      this.isoNow(),
    );
    await this.audit.record(actor, {
      action: "token.updated",
      serverId,
      target: name,
      detail: { fields: Object.keys(input), ...(reenabled ? { reenabled: true } : {}) },
    });
    return this.merge(updated, await this.repository.find(serverId, name));
  }

  /** PATCH: `uses_allowed` 0 on the homeserver and the local disabled flag (Synapse alone would treat 0 as unlimited). */
  async disable(serverId: string, token: string, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, () => this.disableNow(serverId, token, actor));
  }

  private async disableNow(serverId: string, token: string, actor: AuditActor): Promise<TokenRecord> {
    const name = parseOr400(TokenString, token, "token");
    const api = await this.api(serverId);
    const updated = await api.update(name, { uses_allowed: 0 });
    if (!updated) throw noSuchToken(name);
    await this.repository.upsert(serverId, name, { disabled: true }, this.isoNow());
    await this.audit.record(actor, { action: "token.disabled", serverId, target: name });
    return this.merge(updated, await this.repository.find(serverId, name));
  }

  /** Deletes on the homeserver and locally; 404 only when neither side knew the token. */
  async delete(serverId: string, token: string, actor: AuditActor): Promise<void> {
    return this.written(serverId, () => this.deleteNow(serverId, token, actor));
  }

  private async deleteNow(serverId: string, token: string, actor: AuditActor): Promise<void> {
    const name = parseOr400(TokenString, token, "token");
    const api = await this.api(serverId);
    const onHomeserver = await api.delete(name);
    const local = await this.repository.delete(serverId, name);
    if (!onHomeserver && !local) throw noSuchToken(name);
    await this.audit.record(actor, { action: "token.deleted", serverId, target: name });
  }

  /** Ends the sharing of list answers for a server: something outside this service (a sign-up) used a token. */
  forget(serverId: string): void {
    this.lists.end(serverId);
  }

  /**
   * Runs a token write, then ends the sharing of list calls for the server, failed or not (a write that timed out
   * may still have happened): only when the homeserver has answered can a new list call see the change.
   */
  private async written<T>(serverId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.lists.end(serverId);
    }
  }

  /** The token API of a managed server (404 for an unknown server). */
  private async api(serverId: string): Promise<RegistrationTokensApi> {
    return this.apiFor(await this.servers.requireRow(serverId));
  }

  private apiFor(server: ServerConnection): RegistrationTokensApi {
    return new RegistrationTokensApi(this.connector.client(server));
  }

  private merge(token: HomeserverToken, metadata: TokenMetadataRow | undefined, now = this.now()): TokenRecord {
    const state = tokenState(token, metadata?.disabled === 1, now);
    return {
      ...token,
      label: metadata?.label ?? null,
      note: metadata?.note ?? null,
      disabled: state === "disabled",
      valid: state === "valid",
    };
  }

  /** Synapse refuses an expiry in the past with 400; say it in the portal's words first. */
  private assertFuture(expiry: number | null): void {
    if (expiry !== null && expiry < this.now()) throw new HttpError(400, "expiry_time must not be in the past", "BAD_REQUEST");
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
