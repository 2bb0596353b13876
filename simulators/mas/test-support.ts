import assert from "node:assert/strict";
import { type MasSimulator, type MasSimulatorOptions, startMasSimulator } from "./index.ts";

/** A decoded answer: JSON when it was JSON, otherwise `{text}`. */
export interface MasReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
  text: string;
  headers: Headers;
}

/** A clock the tests move by hand (16 January 2022, 14:40 UTC: the instant of MAS's own test snapshots). */
export class MasClock {
  time = Date.UTC(2022, 0, 16, 14, 40);
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** Starts a simulator for one test; `t.after` closes it. */
export async function masSimulator(
  t: { after(fn: () => Promise<void> | void): void },
  options: MasSimulatorOptions = {},
): Promise<MasSimulator> {
  const mas = await startMasSimulator(options);
  t.after(() => mas.close());
  return mas;
}

export async function request(
  mas: MasSimulator,
  method: string,
  path: string,
  options: { json?: unknown; raw?: string; headers?: Record<string, string>; token?: string } = {},
): Promise<MasReply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.raw;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${mas.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown = { text };
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/** The client-credentials grant with the simulator's first client (`client_secret_basic`). */
export async function grant(mas: MasSimulator, scope = "urn:mas:admin"): Promise<MasReply> {
  const basic = Buffer.from(`${mas.client.clientId}:${mas.client.clientSecret}`).toString("base64");
  return request(mas, "POST", "/oauth2/token", {
    raw: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
  });
}

/** An admin access token (asserting the grant worked). */
export async function adminToken(mas: MasSimulator): Promise<string> {
  const reply = await grant(mas);
  assert.equal(reply.status, 200, reply.text);
  return reply.body.access_token;
}

export const TOKENS = "/api/admin/v1/user-registration-tokens";

/** Creates a token through the admin API, asserting the 201. */
export async function createToken(mas: MasSimulator, token: string, body: Record<string, unknown>): Promise<MasReply> {
  const reply = await request(mas, "POST", TOKENS, { token, json: body });
  assert.equal(reply.status, 201, reply.text);
  return reply;
}
