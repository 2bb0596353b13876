import { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, buildConnector, type Dispatcher, request } from "undici";
import type { Logger } from "../../../lib/logger.ts";
import { type HomeserverOutcome, statusClass } from "../metrics/portal-metrics.ts";
import { type HomeserverPath, homeserverUrl } from "./homeserver-path.ts";
import { OutboundPolicy, OutboundRefused } from "./outbound-policy.ts";

/** A homeserver's answer: status, the JSON object body (empty when the body was not a JSON object) and headers. */
export interface HomeserverResponse {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly json: boolean;
  readonly retryAfterMs: number | undefined;
}

/**
 * The homeserver could not be asked: `timeout`; `network` (connection refused, DNS, TLS, an oversized answer);
 * `denied` by the outbound rules (PORTAL_OUTBOUND_ALLOW / DENY). The message is the cause, for the log: admins see
 * it only for `denied` (see homeserver-errors.ts, docs/portal.md "Outbound calls").
 */
export class HomeserverUnreachable extends Error {
  override name = "HomeserverUnreachable";
  constructor(
    readonly kind: "timeout" | "network" | "denied",
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions {
  body?: unknown;
  /**
   * Send this client's token as a bearer token: the managed server's admin token, or the bot / appservice token of a
   * `tokenClient` (never on `/register`).
   */
  admin?: boolean;
  query?: Record<string, string>;
  /** An `application/x-www-form-urlencoded` body instead of JSON (OAuth 2.0 token requests). */
  form?: Record<string, string>;
  /** Extra request headers (an OAuth client's `Authorization: Basic`); never logged. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Shared connection pool for every homeserver call; closed when the portal stops. Every connection is checked
 * against `policy`: the host first (an IP literal is never looked up), then each address the lookup returned,
 * inside the lookup the socket connects with, so no second resolution can differ from the one checked.
 */
export function createHomeserverAgent(policy = new OutboundPolicy(), resolve: LookupFunction = dnsLookup): Agent {
  const connector = buildConnector({ timeout: 5_000, lookup: policy.lookup(resolve) });
  return new Agent({
    connect: (options, callback) => {
      const refusal = policy.refuseHost(options.hostname);
      if (refusal !== undefined) return callback(new OutboundRefused(refusal), null);
      connector(options, callback);
    },
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
    // An admin token list is small; anything this big is not a homeserver talking.
    maxResponseSize: 8 * 1024 * 1024,
    keepAliveTimeout: 10_000,
  });
}

/** Registration tokens are invitation codes: keep them out of debug lines too. */
const loggedPath = (path: string) => path.replace(/(registration_tokens\/)[^/]+/, "$1…");

/**
 * A path `call` accepts: a string literal written in the code (`"/_matrix/client/versions"`), or a
 * {@link HomeserverPath} built with `homeserverPath` when a value goes into it. A computed plain string is a type
 * error, so no caller can paste a visitor's input into a URL by hand.
 */
export type CallPath<P extends string> = P & (P extends HomeserverPath ? unknown : string extends P ? HomeserverPath : unknown);

/**
 * HTTP to one managed homeserver (its internal URL) with undici: JSON in and out, a time limit per call, no
 * redirects, and the admin token only when asked for. It never throws for an HTTP status: callers decide what a
 * 401 or a 404 means for them. Network failures and timeouts throw HomeserverUnreachable. The URL's path is
 * checked to be exactly the one named (homeserver-path.ts) before anything is sent.
 */
export class HomeserverClient {
  constructor(
    private readonly http: Dispatcher,
    readonly baseUrl: string,
    private readonly adminToken: string | undefined,
    private readonly log: Logger,
    private readonly defaultTimeoutMs = 10_000,
    /** Told every call's outcome and duration (the portal's metrics). */
    private readonly observe: (outcome: HomeserverOutcome, seconds: number) => void = () => undefined,
  ) {}

  async call<P extends string>(
    method: Dispatcher.HttpMethod,
    path: CallPath<P>,
    options: CallOptions = {},
  ): Promise<HomeserverResponse> {
    const url = homeserverUrl(this.baseUrl, path);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (options.admin) {
      if (this.adminToken === undefined) throw new Error("this homeserver client has no admin token");
      headers.authorization = `Bearer ${this.adminToken}`;
    }
    let payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    if (options.form !== undefined) {
      payload = new URLSearchParams(options.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const started = performance.now();
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await request(url, {
        dispatcher: this.http,
        method,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
        signal: AbortSignal.timeout(options.timeoutMs ?? this.defaultTimeoutMs),
      });
      text = await response.body.text();
    } catch (error) {
      const err = error as Error & { code?: string; cause?: Error & { code?: string } };
      const denied = [err, err.cause].find((e) => e instanceof OutboundRefused);
      if (denied) {
        this.log.warn(
          { method, path: loggedPath(path), reason: denied.message },
          "homeserver call refused by the outbound rules",
        );
        this.observe("denied", (performance.now() - started) / 1000);
        throw new HomeserverUnreachable("denied", denied.message);
      }
      const timedOut = err.name === "TimeoutError" || err.name === "AbortError" || /timeout/i.test(err.code ?? "");
      const reason = timedOut ? "timed out" : (err.cause?.code ?? err.code ?? err.name);
      // Admins are told only that no homeserver answered (homeserver-errors.ts): the cause is here, for the operator.
      this.log.info({ method, url: `${url.origin}${loggedPath(url.pathname)}`, reason }, "homeserver call failed");
      this.observe(timedOut ? "timeout" : "network", (performance.now() - started) / 1000);
      throw new HomeserverUnreachable(timedOut ? "timeout" : "network", reason);
    }
    const { body, json } = parseObject(text);
    const retryAfter = response.headers["retry-after"];
    const retryAfterMs =
      typeof body.retry_after_ms === "number"
        ? body.retry_after_ms
        : typeof retryAfter === "string" && /^\d+$/.test(retryAfter)
          ? Number(retryAfter) * 1000
          : undefined;
    const seconds = (performance.now() - started) / 1000;
    this.observe(statusClass(response.statusCode), seconds);
    this.log.debug(
      { method, path: loggedPath(path), status: response.statusCode, ms: Math.round(seconds * 1000) },
      "homeserver call",
    );
    return { status: response.statusCode, body, json, retryAfterMs };
  }
}

function parseObject(text: string): { body: Record<string, unknown>; json: boolean } {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return { body: value as Record<string, unknown>, json: true };
    }
  } catch {
    // Not JSON (an HTML error page from a proxy, Synapse's plain `OK`): the caller sees json false.
  }
  return { body: {}, json: false };
}

/** The Matrix error code of an answer, if any. */
export const errcodeOf = (response: HomeserverResponse): string | undefined =>
  typeof response.body.errcode === "string" ? response.body.errcode : undefined;

/** The homeserver's own error message, if any. */
export const errorOf = (response: HomeserverResponse): string | undefined =>
  typeof response.body.error === "string" ? response.body.error : undefined;
