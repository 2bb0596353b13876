import { HttpError } from "../../../lib/http-error.ts";
import { parseOr400 } from "../../../lib/validate.ts";
import type { AuditActor, AuditService } from "../audit/audit.service.ts";
import type { HomeserverConnector } from "../homeserver/connector.ts";
import {
  type ServerToken,
  type TokenBackend,
  type TokenPage,
  tokenBackendFor,
  tokenSettingsVersion,
} from "../homeserver/token-backend.ts";
import type { ServerRow } from "../servers/servers.repository.ts";
import type { ServersService } from "../servers/servers.service.ts";
import { readableToken } from "./readable-token.ts";
import { SingleFlight } from "./single-flight.ts";
import type { TokenState } from "./token-state.ts";
import type { TokenMetadataRow, TokensRepository } from "./tokens.repository.ts";
import { type BatchTokensInput, type CreateTokenInput, TokenString, type UpdateTokenInput } from "./tokens.schema.ts";

/**
 * A registration token as the admin API returns it: the server's fields (Synapse's, or MAS's mapped onto them, see
 * ServerToken), local metadata and the portal's verdict.
 */
export interface TokenRecord extends ServerToken {
  label: string | null;
  note: string | null;
  /** Disabled through the portal (PATCH), `uses_allowed: 0` on Synapse, or revoked on MAS: refused at sign-up. */
  disabled: boolean;
  /** Usable for a sign-up right now (not disabled, expired or used up). */
  valid: boolean;
  /** The portal's verdict in one word (`valid`, `disabled`, `expired`, `exhausted`). */
  state: TokenState;
}

/** `GET /api/admin/tokens` with `limit`: one page of tokens, the cursor of the next, and how many match in all. */
export interface TokenListPage {
  tokens: TokenRecord[];
  next: string | null;
  total: number;
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
 * Registration tokens of one managed server: the server holds them (Synapse's admin API, or MAS's for servers of kind
 * `mas`, behind homeserver/token-backend.ts), the portal adds a label, a note and (Synapse) a disabled flag.
 * Failures surface as described in homeserver-errors.ts and mas/mas-errors.ts; a failed call changes nothing locally.
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
   * `written` and {@link forget}), on this instance and on every other of the database: a list asked for after them
   * never answers from before them. Uses made on the homeserver directly show within a second.
   */
  async list(serverId: string): Promise<readonly TokenRecord[]> {
    const [server, changes] = await Promise.all([this.servers.requireRow(serverId), this.repository.changes(serverId)]);
    // A server whose URL or credentials changed meanwhile is asked again, not answered from the old call; so is one
    // whose tokens another portal instance changed since (the shared count of changes moved).
    return this.lists.run(serverId, `${tokenSettingsVersion(server)}#${changes}`, () => this.load(server));
  }

  private async load(server: ServerRow): Promise<TokenRecord[]> {
    const backend = this.backendFor(server);
    // Rows written after this instant may belong to a token created meanwhile: they are not orphans yet.
    const askedAt = this.isoNow();
    const [tokens, rows] = await Promise.all([backend.all(), this.repository.listForServer(server.id)]);
    const metadata = new Map(rows.map((row) => [row.token, row]));
    const present = new Set(tokens.map((token) => token.token));
    const orphans = rows.filter((row) => !present.has(row.token)).map((row) => row.token);
    if (orphans.length > 0) await this.repository.deleteStale(server.id, orphans, askedAt);
    const now = this.now();
    return tokens.map((token) => this.merge(backend, token, metadata.get(token.token), now));
  }

  /**
   * One page of tokens, optionally of one state: through MAS's own filters and cursors on a MAS server, from the
   * shared list on a Synapse server (whose admin API has neither). `after` is the `next` of the previous page.
   */
  async page(
    serverId: string,
    query: { status?: TokenState | undefined; limit: number; after?: string | undefined },
  ): Promise<TokenListPage> {
    const server = await this.servers.requireRow(serverId);
    const backend = this.backendFor(server);
    if (backend.page) {
      const page: TokenPage = await backend.page({
        limit: query.limit,
        ...(query.status ? { state: query.status } : {}),
        ...(query.after ? { after: query.after } : {}),
      });
      const metadata = new Map((await this.repository.listForServer(serverId)).map((row) => [row.token, row]));
      const now = this.now();
      const tokens = page.tokens.map((token) => this.merge(backend, token, metadata.get(token.token), now));
      return { tokens, next: page.next, total: page.total };
    }
    const all = (await this.list(serverId)).filter((token) => !query.status || token.state === query.status);
    let start = 0;
    if (query.after) {
      start = all.findIndex((token) => token.token === query.after) + 1;
      if (start === 0)
        throw new HttpError(400, "after: no such token in this list (the list changed: start again)", "BAD_REQUEST");
    }
    const tokens = all.slice(start, start + query.limit);
    const more = start + query.limit < all.length;
    return { tokens, next: more ? (tokens.at(-1)?.token ?? null) : null, total: all.length };
  }

  async get(serverId: string, token: string): Promise<TokenRecord> {
    const name = parseOr400(TokenString, token, "token");
    const backend = await this.backend(serverId);
    const askedAt = this.isoNow();
    const found = await backend.get(name);
    if (!found) {
      await this.repository.deleteStale(serverId, [name], askedAt);
      throw noSuchToken(name);
    }
    return this.merge(backend, found, await this.repository.find(serverId, name));
  }

  async create(serverId: string, input: CreateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, () => this.createNow(serverId, input, actor));
  }

  private async createNow(serverId: string, input: CreateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    const backend = await this.backend(serverId);
    this.assertFuture(input.expiry_time);
    const created = await backend.create({
      ...(input.token ? { token: input.token } : {}),
      length: input.length ?? 16,
      uses_allowed: input.uses_allowed,
      expiry_time: input.expiry_time,
    });
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
    return this.merge(backend, created, await this.repository.find(serverId, created.token));
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
   * Changes server fields (`uses_allowed`, `expiry_time`) and/or metadata. On Synapse, giving `uses_allowed` to a
   * disabled token enables it again (it replaces the 0 that disabling wrote on the homeserver); on MAS a revoked token
   * keeps its limit and is enabled with {@link enable}.
   */
  async update(serverId: string, token: string, input: UpdateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, () => this.updateNow(serverId, token, input, actor));
  }

  private async updateNow(serverId: string, token: string, input: UpdateTokenInput, actor: AuditActor): Promise<TokenRecord> {
    const name = parseOr400(TokenString, token, "token");
    const backend = await this.backend(serverId);
    if (input.expiry_time !== undefined) this.assertFuture(input.expiry_time);
    const homeserverFields = {
      ...(input.uses_allowed === undefined ? {} : { uses_allowed: input.uses_allowed }),
      ...(input.expiry_time === undefined ? {} : { expiry_time: input.expiry_time }),
    };
    const updated =
      Object.keys(homeserverFields).length > 0 ? await backend.update(name, homeserverFields) : await backend.get(name);
    if (!updated) throw noSuchToken(name);
    const before = await this.repository.find(serverId, name);
    const reenabled = backend.localDisable && input.uses_allowed !== undefined && before?.disabled === 1;
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
    return this.merge(backend, updated, await this.repository.find(serverId, name));
  }

  /**
   * PATCH: switches the token off. Synapse: `uses_allowed` 0 on the homeserver and the local disabled flag (Synapse
   * alone would treat 0 as unlimited). MAS: revoke (a token already revoked stays so); MAS's flag is the only one.
   */
  async disable(serverId: string, token: string, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, () => this.disableNow(serverId, token, actor));
  }

  private async disableNow(serverId: string, token: string, actor: AuditActor): Promise<TokenRecord> {
    const name = parseOr400(TokenString, token, "token");
    const backend = await this.backend(serverId);
    const updated = await backend.disable(name);
    if (!updated) throw noSuchToken(name);
    if (backend.localDisable) await this.repository.upsert(serverId, name, { disabled: true }, this.isoNow());
    await this.audit.record(actor, {
      action: "token.disabled",
      serverId,
      target: name,
      ...(backend.kind === "mas" ? { detail: { via: "revoke" } } : {}),
    });
    return this.merge(backend, updated, await this.repository.find(serverId, name));
  }

  /**
   * PATCH `{action: "enable"}`: switches a disabled token on again where the server can undo disabling (MAS:
   * unrevoke; its limit and uses are as they were). Synapse answers 400: give `uses_allowed` with PUT instead.
   */
  async enable(serverId: string, token: string, actor: AuditActor): Promise<TokenRecord> {
    return this.written(serverId, async () => {
      const name = parseOr400(TokenString, token, "token");
      const backend = await this.backend(serverId);
      const updated = await backend.enable(name);
      if (!updated) throw noSuchToken(name);
      await this.audit.record(actor, {
        action: "token.updated",
        serverId,
        target: name,
        detail: { fields: ["enabled"], reenabled: true, via: "unrevoke" },
      });
      return this.merge(backend, updated, await this.repository.find(serverId, name));
    });
  }

  /** Deletes on the homeserver and locally; 404 only when neither side knew the token. MAS has no delete (409). */
  async delete(serverId: string, token: string, actor: AuditActor): Promise<void> {
    return this.written(serverId, () => this.deleteNow(serverId, token, actor));
  }

  private async deleteNow(serverId: string, token: string, actor: AuditActor): Promise<void> {
    const name = parseOr400(TokenString, token, "token");
    const backend = await this.backend(serverId);
    const onHomeserver = await backend.delete(name);
    const local = await this.repository.delete(serverId, name);
    if (!onHomeserver && !local) throw noSuchToken(name);
    await this.audit.record(actor, { action: "token.deleted", serverId, target: name });
  }

  /**
   * Ends the sharing of list answers for a server, here and (through the shared count of changes) on every other
   * portal instance: something outside this service (a sign-up) used a token.
   */
  async forget(serverId: string): Promise<void> {
    this.lists.end(serverId);
    await this.repository.changed(serverId);
  }

  /**
   * Runs a token write, then ends the sharing of list calls for the server, failed or not (a write that timed out
   * may still have happened): only when the homeserver has answered can a new list call see the change.
   */
  private async written<T>(serverId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      await this.forget(serverId);
    }
  }

  /** The token backend of a managed server (404 for an unknown server). */
  private async backend(serverId: string): Promise<TokenBackend> {
    return this.backendFor(await this.servers.requireRow(serverId));
  }

  private backendFor(server: ServerRow): TokenBackend {
    return tokenBackendFor(server, () => this.connector.client(server), this.connector.mas);
  }

  private merge(
    backend: TokenBackend,
    token: ServerToken,
    metadata: TokenMetadataRow | undefined,
    now = this.now(),
  ): TokenRecord {
    const state = backend.state(token, backend.localDisable && metadata?.disabled === 1, now);
    return {
      ...token,
      label: metadata?.label ?? null,
      note: metadata?.note ?? null,
      disabled: state === "disabled",
      valid: state === "valid",
      state,
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
