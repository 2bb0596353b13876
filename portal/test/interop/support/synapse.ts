/**
 * A real Synapse for the interop run (docs/INTEROP.md "The portal against Synapse"): the pinned release in
 * .cache/interop/synapse, on 127.0.0.1 at a free port, with a configuration and signing key generated into a temp
 * folder (SQLite, registration with a token, a registration shared secret). An admin is created through the
 * shared-secret admin registration and logged in (no manual step). It can be stopped and started again on the same
 * folder (its database keeps users, tokens and rooms) with more appservice registrations. Its log goes to
 * test-artifacts/interop/<name>.synapse.log.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../../../../lib/testing/fixtures.ts";
import { freePort } from "../../../../lib/testing/processes.ts";

const root = fileURLToPath(new URL("../../../..", import.meta.url));
const python = join(root, ".cache", "interop", "synapse", "bin", "python");
export const artifactsDir = join(root, "test-artifacts", "interop");

/** What a test may change in the generated homeserver.yaml. */
export interface SynapseOptions {
  name: string;
  serverName: string;
  /** Appservice registrations (YAML text) loaded from the first start on. */
  appservices?: string[];
  /** Keep Synapse's default rate limits (otherwise they are raised, see `configuration`). */
  defaultRateLimits?: boolean;
}

/**
 * homeserver.yaml as JSON (YAML is a superset of JSON, so no YAML writer is needed). The rate limits are raised:
 * every request of the run comes from 127.0.0.1 (the portal's address), and Synapse's defaults (3 registrations,
 * 5 logins per address in a burst) would make the run wait minutes; the portal's own 429 handling is covered against
 * the simulator.
 */
function configuration(dir: string, port: number, options: SynapseOptions, secret: string, appservices: string[]) {
  const generous = { per_second: 100, burst_count: 1000 };
  const limits = options.defaultRateLimits
    ? {}
    : {
        rc_registration: generous,
        rc_registration_token_validity: generous,
        rc_login: { address: generous, account: generous, failed_attempts: generous },
        rc_joins: { local: generous, remote: generous },
        rc_message: generous,
      };
  return {
    server_name: options.serverName,
    pid_file: join(dir, "homeserver.pid"),
    listeners: [
      {
        port,
        bind_addresses: ["127.0.0.1"],
        type: "http",
        tls: false,
        x_forwarded: false,
        resources: [{ names: ["client"], compress: false }],
      },
    ],
    database: { name: "sqlite3", args: { database: join(dir, "homeserver.db") } },
    media_store_path: join(dir, "media"),
    signing_key_path: join(dir, "signing.key"),
    trusted_key_servers: [],
    suppress_key_server_warning: true,
    report_stats: false,
    enable_registration: true,
    registration_requires_token: true,
    registration_shared_secret: secret,
    macaroon_secret_key: randomBytes(24).toString("hex"),
    form_secret: randomBytes(24).toString("hex"),
    app_service_config_files: appservices,
    ...limits,
  };
}

export class Synapse {
  #child: ChildProcess | undefined;
  #appservices: string[] = [];
  #adminToken: string | undefined;

  private constructor(
    readonly url: string,
    readonly port: number,
    readonly options: SynapseOptions,
    readonly dir: { path: string; remove(): Promise<void> },
    readonly secret: string,
    readonly logFile: string,
  ) {}

  get serverName(): string {
    return this.options.serverName;
  }

  /** The access token of the admin made at the first start. */
  get adminToken(): string {
    if (!this.#adminToken) throw new Error("Synapse has no admin yet");
    return this.#adminToken;
  }

  /** Writes the configuration, generates the signing key, starts Synapse and makes the admin. */
  static async start(options: SynapseOptions): Promise<Synapse> {
    const port = await freePort();
    const dir = await tempDir("synapse-");
    mkdirSync(artifactsDir, { recursive: true });
    const synapse = new Synapse(
      `http://127.0.0.1:${port}`,
      port,
      options,
      dir,
      randomBytes(24).toString("hex"),
      join(artifactsDir, `${options.name}.synapse.log`),
    );
    try {
      (options.appservices ?? []).forEach((text, index) => {
        const file = join(dir.path, `appservice-${index}.yaml`);
        writeFileSync(file, text);
        synapse.#appservices.push(file);
      });
      synapse.#writeConfig();
      const keys = spawnSync(python, ["-m", "synapse.app.homeserver", "-c", synapse.configFile, "--generate-keys"], {
        encoding: "utf8",
      });
      if (keys.status !== 0) throw new Error(`synapse --generate-keys failed: ${keys.stderr}`);
      await synapse.restart();
      await synapse.registerUser("admin", "admin-password-interop", true);
      synapse.#adminToken = await synapse.login("admin", "admin-password-interop");
      return synapse;
    } catch (error) {
      // The caller never gets the instance: stop and remove here.
      await synapse.remove();
      throw error;
    }
  }

  get configFile(): string {
    return join(this.dir.path, "homeserver.yaml");
  }

  #writeConfig(): void {
    const config = configuration(this.dir.path, this.port, this.options, this.secret, this.#appservices);
    writeFileSync(this.configFile, `${JSON.stringify(config, null, 2)}\n`);
  }

  /** Adds an appservice registration file (read at the next start: Synapse loads them only at start-up). */
  addAppservice(file: string): void {
    this.#appservices.push(file);
    this.#writeConfig();
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** Starts Synapse on the existing folder and waits until `/_matrix/client/versions` answers. */
  async restart(): Promise<void> {
    if (this.#child) throw new Error("Synapse is already running");
    const log = createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(python, ["-m", "synapse.app.homeserver", "-c", this.configFile], {
      cwd: this.dir.path,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    this.#child = child;
    // Polled until it answers, or until the process has exited (a refused configuration ends it at once).
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.#child = undefined;
        throw new Error(`Synapse exited (${child.exitCode ?? child.signalCode}) while starting; see ${this.logFile}`);
      }
      const answer = await fetch(`${this.url}/_matrix/client/versions`).catch(() => undefined);
      if (answer?.status === 200) return;
      if (Date.now() > deadline) throw new Error(`Synapse did not answer within 120 s; see ${this.logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Freezes (SIGSTOP) or thaws (SIGCONT) the process: connections are accepted by the kernel, nothing answers. */
  freeze(frozen: boolean): void {
    this.#child?.kill(frozen ? "SIGSTOP" : "SIGCONT");
  }

  /** Stops Synapse (SIGTERM; SIGKILL after 30 s). */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exit = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exit;
      clearTimeout(timer);
    }
    this.#child = undefined;
  }

  async remove(): Promise<void> {
    await this.stop();
    await this.dir.remove();
  }

  /**
   * Synapse's shared-secret registration (`/_synapse/admin/v1/register`): a nonce, then the HMAC-SHA1 of
   * nonce, user, password and admin flag (NUL-separated) keyed with `registration_shared_secret`.
   */
  async registerUser(username: string, password: string, admin = false): Promise<{ user_id: string; access_token: string }> {
    const nonce = ((await this.call("GET", "/_synapse/admin/v1/register")).body as { nonce: string }).nonce;
    const mac = createHmac("sha1", this.secret)
      .update([nonce, username, password, admin ? "admin" : "notadmin"].join("\0"))
      .digest("hex");
    const reply = await this.call("POST", "/_synapse/admin/v1/register", { nonce, username, password, admin, mac });
    if (reply.status !== 200) throw new Error(`shared-secret registration of ${username}: ${reply.status} ${reply.text}`);
    return reply.body as { user_id: string; access_token: string };
  }

  /** `m.login.password` login; the access token. */
  async login(user: string, password: string): Promise<string> {
    const reply = await this.loginReply(user, password);
    if (reply.status !== 200) throw new Error(`login of ${user}: ${reply.status} ${reply.text}`);
    return (reply.body as { access_token: string }).access_token;
  }

  loginReply(user: string, password: string) {
    return this.call("POST", "/_matrix/client/v3/login", {
      type: "m.login.password",
      identifier: { type: "m.id.user", user },
      password,
    });
  }

  /** One client-server or admin API call; `token` defaults to none. */
  async call(method: string, path: string, body?: unknown, token?: string) {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed, text };
  }

  /** An admin API call with the admin's token. */
  admin(method: string, path: string, body?: unknown) {
    return this.call(method, path, body, this.adminToken);
  }
}
