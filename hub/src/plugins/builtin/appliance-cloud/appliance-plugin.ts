/**
 * The built-in Appliance cloud plugin (experimental, cloud only): signs in to a VeSync-style account, lists its
 * devices, shows the switched-on ones on the bridge (all off by default) and keeps them in step by polling within
 * the account's daily request quota. Sign-in problems and unsupported models go to the status line and its
 * details; the password arrives through the configuration's secret field and lives only in `secrets.json`.
 */
import type { HubPlugin, PluginConfig, PluginConfigSchema, PluginContext } from "../../api.ts";
import type { BuiltinServices, CancelTimer } from "../../builtin-services.ts";
import { type ApplianceEndpoint, commandFor, endpointsFor, stateFor, supportOf } from "./appliance-mapping.ts";
import { type ApplianceCloudClient, type CloudDevice, CloudError, type CloudSession, signInProblem } from "./cloud-client.ts";
import { POLL_DEFAULT_SECONDS, POLL_MAX_SECONDS, POLL_MIN_SECONDS, type PollPlan, pollPlan } from "./poll-quota.ts";

export const APPLIANCE_PLUGIN = "appliance-cloud";
const switchKey = (cid: string) => `device_${cid}`;

interface Shown {
  device: CloudDevice;
  speeds: number;
  endpoints: ApplianceEndpoint[];
}

export class ApplianceCloudPlugin implements HubPlugin {
  readonly name = APPLIANCE_PLUGIN;
  readonly version = "1.0.0";
  #context: PluginContext | undefined;
  #config: PluginConfig = {};
  #session: CloudSession | undefined;
  #account: CloudDevice[] = [];
  readonly #shown = new Map<string, Shown>();
  #plan: PollPlan = pollPlan(POLL_DEFAULT_SECONDS, 0, 0);
  #cancelPoll: CancelTimer | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly services: BuiltinServices,
    private readonly client: ApplianceCloudClient,
  ) {}

  onStart(context: PluginContext): void {
    this.#context = context;
    this.services.setStatus("not configured: enter the account e-mail and password", undefined, { needsSettings: true });
  }

  async onConfigChanged(config: PluginConfig): Promise<void> {
    const credentialsChanged = config.email !== this.#config.email || config.password !== this.#config.password;
    this.#config = config;
    if (credentialsChanged) this.#session = undefined;
    this.#cancelPoll?.();
    if (typeof config.email !== "string" || !config.email || typeof config.password !== "string" || !config.password) {
      await this.#serial(() => this.#show([]));
      this.services.setStatus("not configured: enter the account e-mail and password", undefined, { needsSettings: true });
      return;
    }
    await this.#serial(() => this.#cycle());
  }

  onConfigure(): void {}

  async onShutdown(): Promise<void> {
    this.#cancelPoll?.();
    this.#cancelPoll = undefined;
    await this.#queue;
    this.#context = undefined;
  }

  /** Credentials, poll interval and one switch per supported device found on the account. */
  getConfigSchema(): PluginConfigSchema {
    const switches = this.#account
      .filter((device) => "kind" in supportOf(device.model))
      .map((device) => [switchKey(device.cid), { type: "boolean" as const, title: device.name, default: false }]);
    return {
      title: "Appliance cloud (experimental, cloud only)",
      properties: {
        email: { type: "string", title: "Account e-mail" },
        password: { type: "string", title: "Password", secret: true },
        pollInterval: {
          type: "integer",
          title: "Poll interval (s)",
          minimum: POLL_MIN_SECONDS,
          maximum: POLL_MAX_SECONDS,
          default: POLL_DEFAULT_SECONDS,
        },
        ...Object.fromEntries(switches),
      },
    };
  }

  /** Sign in if needed, list the account, show the switched-on devices, read their status, plan the next poll. */
  async #cycle(): Promise<void> {
    let problem: string | null = null;
    try {
      this.#account = await this.#withSession((session) => this.client.listDevices(session));
      const wanted = this.#account.filter(
        (device) => this.#config[switchKey(device.cid)] === true && "kind" in supportOf(device.model),
      );
      await this.#show(wanted);
      for (const shown of this.#shown.values()) await this.#refresh(shown);
    } catch (error) {
      // Without a session the failure was the sign-in itself.
      problem = this.#session ? `cloud error: ${(error as Error).message}` : signInProblem(error);
    }
    this.#plan = pollPlan(this.#config.pollInterval, this.#account.length, this.#shown.size);
    this.#report(problem);
    if (this.#context)
      this.#cancelPoll = this.services.clock.setTimeout(() => void this.#serial(() => this.#cycle()), this.#plan.interval * 1000);
  }

  async #withSession<T>(run: (session: CloudSession) => Promise<T>): Promise<T> {
    this.#session ??= await this.client.signIn(String(this.#config.email), String(this.#config.password));
    try {
      return await run(this.#session);
    } catch (error) {
      if (!(error instanceof CloudError) || error.code !== "token_expired") throw error;
      this.#session = await this.client.signIn(String(this.#config.email), String(this.#config.password));
      return run(this.#session);
    }
  }

  /** Registers the newly switched-on devices and removes the others. */
  async #show(wanted: CloudDevice[]): Promise<void> {
    const context = this.#context;
    if (!context) return;
    const ids = new Set(wanted.map((device) => device.cid));
    for (const [cid, shown] of [...this.#shown]) {
      if (ids.has(cid)) continue;
      this.#shown.delete(cid);
      for (const endpoint of shown.endpoints) await context.unregisterDevice(endpoint.registration.id).catch(() => undefined);
    }
    for (const device of wanted) {
      const support = supportOf(device.model);
      if (this.#shown.has(device.cid) || !("kind" in support)) continue;
      const shown: Shown = { device, speeds: support.speeds, endpoints: endpointsFor(device, support.kind, support.speeds) };
      for (const endpoint of shown.endpoints) {
        await context.registerDevice({
          ...endpoint.registration,
          onAttributeWrite: (clusterId, attribute, value) =>
            this.#serial(() => this.#written(shown, endpoint, clusterId, attribute, value)),
        });
      }
      this.#shown.set(device.cid, shown);
    }
    for (const device of wanted) {
      const shown = this.#shown.get(device.cid);
      if (shown) shown.device = device;
    }
  }

  /** Reads the device's status and shows it; an offline device shows as unreachable. */
  async #refresh(shown: Shown): Promise<void> {
    const context = this.#context;
    if (!context) return;
    let status: Record<string, unknown> | undefined;
    if (shown.device.online) {
      try {
        status = await this.#withSession((session) => this.client.status(session, shown.device));
      } catch (error) {
        if (!(error instanceof CloudError) || error.code !== "offline") throw error;
      }
    }
    for (const endpoint of shown.endpoints) {
      const id = endpoint.registration.id;
      await context.updateDeviceState(id, "bridgedDeviceBasicInformation", { reachable: status !== undefined });
      if (!status) continue;
      for (const [clusterId, attributes] of stateFor(endpoint.role, shown.speeds, status))
        await context.updateDeviceState(id, clusterId, attributes);
    }
  }

  async #written(shown: Shown, endpoint: ApplianceEndpoint, clusterId: string, attribute: string, value: unknown): Promise<void> {
    const command = commandFor(endpoint.role, shown.speeds, clusterId, attribute, value);
    if (command === null) return;
    if (command !== "revert") {
      try {
        await this.#withSession((session) => this.client.command(session, shown.device, command));
      } catch (error) {
        this.#context?.log.warn(`${shown.device.name}: ${command.type} failed: ${(error as Error).message}`);
      }
    }
    await this.#refresh(shown).catch(() => undefined);
  }

  #report(problem: string | null): void {
    const unsupported = this.#account.flatMap((device) => {
      const support = supportOf(device.model);
      return "unsupported" in support ? [{ name: device.name, model: device.model, reason: support.unsupported }] : [];
    });
    const plan = this.#plan;
    const polling = plan.raised
      ? `polling every ${plan.interval} s (raised from ${plan.configured} s to stay within the daily quota of ${plan.quota} requests)`
      : `polling every ${plan.interval} s`;
    const line = problem ?? `signed in: ${this.#account.length} devices on the account, ${this.#shown.size} shown; ${polling}`;
    this.services.setStatus(line, { unsupported, pollInterval: plan.interval, pollRaised: plan.raised, dailyQuota: plan.quota });
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
