import assert from "node:assert/strict";
import { type HomeserverSimulator, type HomeserverSimulatorOptions, startHomeserverSimulator } from "./index.ts";

/** A decoded answer from the simulator. */
export interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** A clock the tests move by hand (1 January 2026, 00:00 UTC to start). */
export class FakeClock {
  time = Date.UTC(2026, 0, 1);
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** Starts a simulator for one test; `t.after` closes it. Rate limits are off unless the test asks for them. */
export async function simulator(
  t: { after(fn: () => Promise<void> | void): void },
  options: HomeserverSimulatorOptions = {},
): Promise<HomeserverSimulator> {
  const hs = await startHomeserverSimulator({ rateLimit: false, ...options });
  t.after(() => hs.close());
  return hs;
}

export interface CallOptions {
  body?: unknown;
  /** Sent verbatim instead of `JSON.stringify(body)`. */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** One HTTP call over the real socket. */
export async function call(hs: HomeserverSimulator, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  const bodyless = method === "GET" || method === "HEAD";
  const body = bodyless ? undefined : (options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)));
  const response = await fetch(`${hs.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : { text }, headers: response.headers };
}

/** An admin API call with the simulator's admin token. */
export const admin = (hs: HomeserverSimulator, method: string, path: string, body?: unknown) =>
  call(hs, method, `/_synapse/admin/v1${path}`, { token: hs.adminToken, body });

/** Creates a registration token through the admin API and checks that it worked. */
export async function createToken(hs: HomeserverSimulator, body: Record<string, unknown>): Promise<Reply> {
  const reply = await admin(hs, "POST", "/registration_tokens/new", body);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply;
}

export const REGISTER = "/_matrix/client/v3/register";

/** The `auth` dict of the registration-token stage. */
export const tokenStage = (session: string, token: unknown = "welcome") => ({
  auth: { type: "m.login.registration_token", token, session },
});

/** The `auth` dict of the dummy stage. */
export const dummyStage = (session: string) => ({ auth: { type: "m.login.dummy", session } });

/** One `/register` round. */
export const register = (hs: HomeserverSimulator, body: Record<string, unknown>, path = REGISTER) =>
  call(hs, "POST", path, { body });

/** Opens a UIA session for `username` and returns its ID (asserting the 401). */
export async function openSession(hs: HomeserverSimulator, body: Record<string, unknown>, path = REGISTER): Promise<string> {
  const reply = await register(hs, body, path);
  assert.equal(reply.status, 401, JSON.stringify(reply.body));
  assert.equal(typeof reply.body.session, "string");
  return String(reply.body.session);
}

/** The whole token flow the portal performs: open, token stage, dummy stage. Returns the last reply. */
export async function registerWithToken(
  hs: HomeserverSimulator,
  username: string,
  token: string,
  extra: Record<string, unknown> = {},
): Promise<Reply> {
  const session = await openSession(hs, { username, password: "correct horse", inhibit_login: true, ...extra });
  const stage = await register(hs, { auth: { type: "m.login.registration_token", token, session } });
  if (stage.status !== 401 || stage.body.errcode !== undefined) return stage;
  return register(hs, { auth: { type: "m.login.dummy", session } });
}

/** The token as the admin API reports it now. */
export async function tokenState(hs: HomeserverSimulator, token: string): Promise<Record<string, unknown>> {
  const reply = await admin(hs, "GET", `/registration_tokens/${encodeURIComponent(token)}`);
  assert.equal(reply.status, 200);
  return reply.body;
}
