import { Codes, MatrixError, StageError, UiaIncomplete } from "./errors.ts";
import { randomString } from "./random-string.ts";
import { isObject, type JsonObject, truthy } from "./request.ts";
import type { TokenStore } from "./token-store.ts";

export const LoginType = {
  DUMMY: "m.login.dummy",
  TERMS: "m.login.terms",
  REGISTRATION_TOKEN: "m.login.registration_token",
} as const;

/** `AuthHandler.SESSION_EXPIRE_MS`: a session lives 48 h from its creation, whatever its activity. */
export const SESSION_LIFETIME_MS = 48 * 60 * 60 * 1000;
/** Synapse runs `_expire_old_sessions` every 5 minutes. */
export const SWEEP_INTERVAL_MS = 5 * 60 * 1000;

/** `UIAuthSessionDataConstants`: server-side data the client cannot change. */
export interface SessionData {
  registrationToken?: string;
  passwordHash?: string;
  registeredUserId?: string;
}

/** A row of `ui_auth_sessions` with its `ui_auth_sessions_credentials` (stage → result) and session data. */
export interface UiaSession {
  readonly id: string;
  readonly uri: string;
  readonly method: string;
  readonly createdAt: number;
  clientdict: JsonObject;
  readonly results: Map<string, unknown>;
  readonly data: SessionData;
}

/** A stage checker (synapse/handlers/ui_auth/checkers.py): returns the stage result or throws a StageError. */
export type StageChecker = (authdict: JsonObject, sessions: UiaSessions) => unknown;

const isEmpty = (value: JsonObject) => Object.keys(value).length === 0;

/** User-interactive auth sessions and `AuthHandler.check_ui_auth` (synapse/handlers/auth.py). */
export class UiaSessions {
  private readonly sessions = new Map<string, UiaSession>();
  private nextSweep: number;

  constructor(
    private readonly tokens: TokenStore,
    private readonly now: () => number,
  ) {
    this.nextSweep = now() + SWEEP_INTERVAL_MS;
  }

  /** An existing session, or 400 `M_UNKNOWN` "Unknown session ID: …" (also for an expired one). */
  get(id: unknown): UiaSession {
    const session = typeof id === "string" ? this.sessions.get(id) : undefined;
    if (!session) throw new MatrixError(400, `Unknown session ID: ${String(id)}`);
    return session;
  }

  /**
   * One UIA round. Takes `auth` out of `clientdict`; without a session ID it opens a session bound to this URI and
   * method, with one it requires the same URI (path and query) and method (403 otherwise) and, when the request
   * carries no other parameters, reuses the stored ones. A failing stage does not fail the request: its errcode
   * and error are merged into the 401 body. Stage order is not enforced. Returns once any flow is complete.
   */
  check(
    flows: string[][],
    checkers: Record<string, StageChecker>,
    request: { uri: string; method: string },
    clientdict: JsonObject,
  ): { params: JsonObject; session: UiaSession } {
    const authdict = isObject(clientdict.auth) ? clientdict.auth : {};
    delete clientdict.auth;
    let params = clientdict;
    let session: UiaSession;
    if (!truthy(authdict.session)) {
      session = this.create(params, request);
    } else {
      session = this.get(authdict.session);
      if (isEmpty(params)) params = session.clientdict;
      if (session.uri !== request.uri || session.method !== request.method) {
        throw new MatrixError(403, "Requested operation has changed during the UI authentication session.");
      }
      session.clientdict = params;
    }
    const flowsBody = { session: session.id, flows: flows.map((stages) => ({ stages })), params: {} };
    if (isEmpty(authdict)) throw new UiaIncomplete(session.id, flowsBody);

    let errordict = {};
    if ("type" in authdict) {
      const type = authdict.type;
      if (typeof type !== "string") throw new MatrixError(400, "Bad parameter: type", Codes.INVALID_PARAM);
      const checker = checkers[type];
      // No checker: Synapse falls back to `validate_login`, which refuses an auth dict naming no user like this.
      if (!checker) throw new MatrixError(400, "Invalid login submission", Codes.INVALID_PARAM);
      try {
        const result = checker(authdict, this);
        if (truthy(result)) session.results.set(type, result);
      } catch (error) {
        if (!(error instanceof StageError)) throw error;
        errordict = { errcode: error.errcode, error: error.message };
      }
    }
    if (flows.some((flow) => flow.every((stage) => session.results.has(stage)))) return { params, session };
    throw new UiaIncomplete(session.id, { ...flowsBody, completed: [...session.results.keys()], ...errordict });
  }

  /** Runs the sweep when Synapse's 5-minute looping call would have (checked on each request). */
  maybeSweep(): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.sweep();
    this.nextSweep = now + SWEEP_INTERVAL_MS;
  }

  /**
   * `delete_old_ui_auth_sessions`: drops sessions created 48 h ago or earlier. A session whose token stage result is
   * still the token string (registration never finished) gives its `pending` use back; a finished one has `true`.
   * Returns the number of sessions deleted.
   */
  sweep(): number {
    const cutoff = this.now() - SESSION_LIFETIME_MS;
    const released = new Map<string, number>();
    let deleted = 0;
    for (const [id, session] of this.sessions) {
      if (session.createdAt > cutoff) continue;
      const result = session.results.get(LoginType.REGISTRATION_TOKEN);
      if (typeof result === "string") released.set(result, (released.get(result) ?? 0) + 1);
      this.sessions.delete(id);
      deleted++;
    }
    for (const [token, count] of released) this.tokens.releasePending(token, count);
    return deleted;
  }

  private create(clientdict: JsonObject, request: { uri: string; method: string }): UiaSession {
    const session: UiaSession = {
      id: randomString(24),
      uri: request.uri,
      method: request.method,
      createdAt: this.now(),
      clientdict,
      results: new Map(),
      data: {},
    };
    this.sessions.set(session.id, session);
    return session;
  }
}
