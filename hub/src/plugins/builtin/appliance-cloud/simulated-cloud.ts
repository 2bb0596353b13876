/**
 * A simulated VeSync-style cloud for tests: one account, its devices with their status, the three endpoints the
 * client uses, request counting (for the quota) and scripted trouble (two-factor accounts, expired tokens,
 * offline devices). Usable in-process through {@link SimulatedCloud.fetch} or over HTTP with {@link listen}.
 */
import { createHash, randomBytes } from "node:crypto";
import { Hono } from "hono";
import { type RunningHttpServer, startHttpServer } from "../../../../../lib/http-server.ts";
import type { Logger } from "../../../../../lib/logger.ts";
import { CODES } from "./vesync-client.ts";

export interface SimulatedDevice {
  cid: string;
  name: string;
  model: string;
  online: boolean;
  status: Record<string, unknown>;
}

export interface SimulatedCloudOptions {
  email: string;
  password: string;
  /** The account needs a second factor: sign-in always fails with the two-factor code. */
  twoFactor?: boolean;
  devices: SimulatedDevice[];
}

type Body = Record<string, unknown>;
const ok = (result: unknown) => ({ code: 0, msg: "request success", result });
const fail = (code: number, msg: string) => ({ code, msg });

export class SimulatedCloud {
  readonly devices = new Map<string, SimulatedDevice>();
  /** Every bypass command received, oldest first. */
  readonly commands: { cid: string; method: string; data: Body }[] = [];
  /** Requests per path. */
  readonly requests = new Map<string, number>();
  readonly #tokens = new Set<string>();
  readonly #app = new Hono();

  constructor(private readonly options: SimulatedCloudOptions) {
    for (const device of options.devices) this.devices.set(device.cid, structuredClone(device));
    this.#app.use(async (c, next) => {
      this.requests.set(c.req.path, (this.requests.get(c.req.path) ?? 0) + 1);
      await next();
    });
    this.#app.post("/cloud/v1/user/login", async (c) => c.json(this.#login(await c.req.json<Body>())));
    this.#app.post("/cloud/v1/deviceManaged/devices", async (c) => c.json(this.#list(await c.req.json<Body>())));
    this.#app.post("/cloud/v2/deviceManaged/bypassV2", async (c) => c.json(this.#bypass(await c.req.json<Body>())));
  }

  /** The cloud as a `fetch` function (no sockets). */
  readonly fetch = (request: Request): Promise<Response> => Promise.resolve(this.#app.fetch(request));

  /** All requests so far. */
  get requestCount(): number {
    return [...this.requests.values()].reduce((sum, count) => sum + count, 0);
  }

  /** Serves the cloud over HTTP on 127.0.0.1 (a free port). */
  listen(log: Logger): Promise<RunningHttpServer> {
    return startHttpServer({ app: this.#app, host: "127.0.0.1", port: 0, log });
  }

  setOnline(cid: string, online: boolean): void {
    const device = this.devices.get(cid);
    if (device) device.online = online;
  }

  setStatus(cid: string, patch: Record<string, unknown>): void {
    const device = this.devices.get(cid);
    if (device) device.status = { ...device.status, ...patch };
  }

  /** Invalidates every session (the next call answers "token expired"). */
  expireTokens(): void {
    this.#tokens.clear();
  }

  #login(body: Body) {
    const md5 = createHash("md5").update(this.options.password).digest("hex");
    if (body.email !== this.options.email) return fail(CODES.noAccount, "account does not exist");
    if (body.password !== md5) return fail(CODES.wrongPassword, "password incorrect");
    if (this.options.twoFactor) return fail(CODES.twoFactor, "multi-factor authentication required");
    const token = randomBytes(12).toString("hex");
    this.#tokens.add(token);
    return ok({ token, accountID: "1234567" });
  }

  #list(body: Body) {
    if (!this.#tokens.has(String(body.token))) return fail(CODES.tokenExpired, "token expired");
    return ok({
      total: this.devices.size,
      list: [...this.devices.values()].map((d) => ({
        cid: d.cid,
        deviceName: d.name,
        deviceType: d.model,
        connectionStatus: d.online ? "online" : "offline",
      })),
    });
  }

  #bypass(body: Body) {
    if (!this.#tokens.has(String(body.token))) return fail(CODES.tokenExpired, "token expired");
    const device = this.devices.get(String(body.cid));
    if (!device) return fail(-11300000, "device not found");
    if (!device.online) return ok({ code: CODES.deviceOffline, msg: "device offline" });
    const payload = (body.payload ?? {}) as { method?: string; data?: Body };
    const data = payload.data ?? {};
    if (payload.method === "getStatus") return ok({ code: 0, result: structuredClone(device.status) });
    this.commands.push({ cid: device.cid, method: String(payload.method), data });
    const status = device.status;
    if (payload.method === "setSwitch") status.enabled = data.on === true;
    else if (payload.method === "setLevel") Object.assign(status, { enabled: true, mode: "manual", level: data.level });
    else if (payload.method === "endCook") {
      const baskets = status.baskets as { id: number; cookStatus: string }[] | undefined;
      if (baskets) for (const basket of baskets) if (basket.id === data.basket) basket.cookStatus = "standby";
      if (!baskets) status.cookStatus = "standby";
    } else return ok({ code: -1, msg: `unknown method ${String(payload.method)}` });
    return ok({ code: 0, result: {} });
  }
}
