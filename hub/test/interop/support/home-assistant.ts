/**
 * A real Home Assistant core for the interop run (docs/INTEROP.md "A real Home Assistant"): the pinned release in
 * .cache/interop/ha with its `demo` integration, on 127.0.0.1 at a free port, with a generated configuration. It is
 * onboarded and hands out long-lived access tokens through HA's own HTTP and websocket auth API (no manual step), can
 * be stopped and started again on the same configuration folder (users, tokens and registries survive in its
 * .storage), and can revoke a token. Its log goes to test-artifacts/interop/<name>.ha.log.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../../../lib/testing/fixtures.ts";
import { freePort, waitForHttp } from "../../../../lib/testing/processes.ts";
import { HaAdminSocket } from "./ha-admin-socket.ts";
import { interopPaths } from "./interop-env.ts";

/** Fixed location, time zone and units, so sun, weather and unit conversions are the same on every run. */
function configuration(port: number): string {
  return `homeassistant:
  name: Interop Home
  latitude: 52.3731
  longitude: 4.8922
  elevation: 0
  unit_system: metric
  time_zone: Europe/Amsterdam
  currency: EUR
  country: NL
  language: en
http:
  server_host: 127.0.0.1
  server_port: ${port}
api:
websocket_api:
config:
onboarding:
demo:
`;
}

const OWNER = { name: "Interop Owner", username: "interop", password: "interop-owner-password", language: "en" };

export interface HaState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
}

export class HomeAssistantCore {
  #child: ChildProcess | undefined;
  #stderr = "";
  #admin: HaAdminSocket | undefined;
  #adminToken: string | undefined;

  private constructor(
    readonly url: string,
    readonly configDir: { path: string; remove(): Promise<void> },
    readonly logFile: string,
  ) {}

  /** Writes a configuration, starts HA, onboards it and waits until it is RUNNING. */
  static async start(options: { name: string }): Promise<HomeAssistantCore> {
    const port = await freePort();
    const configDir = await tempDir("ha-config-");
    writeFileSync(join(configDir.path, "configuration.yaml"), configuration(port));
    const core = new HomeAssistantCore(
      `http://127.0.0.1:${port}`,
      configDir,
      join(interopPaths().artifacts, `${options.name}.ha.log`),
    );
    await core.restart();
    return core;
  }

  /** The owner's admin socket (for registries and tokens); reopened after each start. */
  get admin(): HaAdminSocket {
    if (!this.#admin) throw new Error("Home Assistant is not running");
    return this.#admin;
  }

  /** Starts HA on the existing configuration folder; onboards on the first start; resolves once it is RUNNING. */
  async restart(): Promise<void> {
    if (this.#child) throw new Error("Home Assistant is already running");
    const { haPython } = interopPaths();
    this.#stderr = "";
    const child = spawn(
      haPython,
      ["-m", "homeassistant", "-c", this.configDir.path, "--skip-pip", "--log-file", this.logFile, "--log-no-color"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    this.#child = child;
    child.stderr?.on("data", (chunk) => {
      this.#stderr = (this.#stderr + chunk).slice(-4000);
    });
    const exited = once(child, "exit").then(([code]) => {
      throw new Error(`Home Assistant exited (${code}) while starting:\n${this.#stderr}`);
    });
    exited.catch(() => undefined); // an exit after start-up (stop) is no error: only the race below reads it
    const up = async () => {
      // /api/onboarding answers without a token as soon as HA's HTTP server is up (before RUNNING).
      await waitForHttp(`${this.url}/api/onboarding`, 180_000);
      this.#adminToken ??= await this.#onboard();
      this.#admin = await HaAdminSocket.connect(this.url, this.#adminToken);
      await this.#admin.untilRunning();
    };
    await Promise.race([up(), exited]);
  }

  /** Stops HA (SIGTERM: it writes its .storage and closes every websocket), killed if it takes over 60 s. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#admin?.close();
    this.#admin = undefined;
    if (child.exitCode === null) {
      const exit = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      await exit;
      clearTimeout(timer);
    }
    this.#child = undefined;
  }

  async remove(): Promise<void> {
    await this.stop();
    await this.configDir.remove();
  }

  /**
   * Onboarding's user step (HA's own first-run API): creates the owner and returns an access token. The location
   * step is not needed (configuration.yaml sets it), nor the integration step (no browser to hand a code to).
   */
  async #onboard(): Promise<string> {
    const clientId = `${this.url}/`;
    const user = await fetch(`${this.url}/api/onboarding/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: clientId, ...OWNER }),
    });
    if (!user.ok) throw new Error(`onboarding: ${user.status} ${await user.text()}`);
    const { auth_code: code } = (await user.json()) as { auth_code: string };
    const token = await fetch(`${this.url}/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: clientId }),
    });
    if (!token.ok) throw new Error(`auth/token: ${token.status} ${await token.text()}`);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    // The onboarding token lives 30 minutes; a long-lived one keeps the test's own access across restarts.
    const socket = await HaAdminSocket.connect(this.url, accessToken);
    try {
      return await socket.command<string>({ type: "auth/long_lived_access_token", client_name: "interop admin", lifespan: 30 });
    } finally {
      socket.close();
    }
  }

  /** A new long-lived access token of the owner, named `clientName` (how HA lists it under the user's profile). */
  createToken(clientName: string): Promise<string> {
    return this.admin.command<string>({ type: "auth/long_lived_access_token", client_name: clientName, lifespan: 30 });
  }

  /** Deletes the long-lived token named `clientName`, as the user's profile page does; HA drops its sockets. */
  async revokeToken(clientName: string): Promise<void> {
    const tokens = await this.admin.command<{ id: string; client_name: string | null; type: string }[]>({
      type: "auth/refresh_tokens",
    });
    const token = tokens.find((t) => t.client_name === clientName && t.type === "long_lived_access_token");
    if (!token) throw new Error(`no long-lived token named ${clientName}`);
    await this.admin.command({ type: "auth/delete_refresh_token", refresh_token_id: token.id });
  }

  /** A REST call with the owner's token; resolves with the parsed body, rejects on a status other than 2xx. */
  async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.#adminToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  state(entityId: string): Promise<HaState> {
    return this.rest<HaState>("GET", `/api/states/${entityId}`);
  }

  /** Polls `entityId`'s state (REST, every 100 ms) until `accept` is true; resolves with that state. */
  async waitForState(entityId: string, accept: (state: HaState) => boolean, timeoutMs = 15_000): Promise<HaState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = await this.state(entityId);
      if (accept(state)) return state;
      if (Date.now() > deadline) throw new Error(`${entityId} stayed ${JSON.stringify(state.state)} for ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** HA's log so far (the current run's file; the previous run's is rolled over to `<file>.1`). */
  log(): string {
    return readFileSync(this.logFile, "utf8");
  }
}
