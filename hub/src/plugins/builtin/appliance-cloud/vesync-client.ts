/**
 * A VeSync-style cloud client (the request shapes of the VeSync app API as open-source clients such as pyvesync
 * use them): POST JSON to `/cloud/v1/user/login` (MD5 of the password), `/cloud/v1/deviceManaged/devices`, and
 * `/cloud/v2/deviceManaged/bypassV2` with a `payload.method` per operation. Answers carry `code` 0 on success.
 * Tested against simulated-cloud.ts, which implements the same shapes; not verified against the vendor's servers.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  type ApplianceCloudClient,
  type CloudCommand,
  type CloudDevice,
  CloudError,
  type CloudErrorCode,
  type CloudSession,
  type CloudStatus,
} from "./cloud-client.ts";

export const VESYNC_BASE_URL = "https://smartapi.vesync.com";

/** Result codes the client classifies; anything else non-zero is an API error. */
export const CODES = {
  wrongPassword: -11201000,
  noAccount: -11202000,
  twoFactor: -11012022,
  tokenExpired: -11001000,
  deviceOffline: -11300030,
} as const;

export interface VeSyncClientOptions {
  baseUrl?: string;
  /** `fetch` to use (tests pass the simulated cloud's handler); default the global one. */
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
}

function classify(code: number): CloudErrorCode {
  if (code === CODES.wrongPassword || code === CODES.noAccount) return "auth";
  if (code === CODES.twoFactor) return "two_factor";
  if (code === CODES.tokenExpired) return "token_expired";
  if (code === CODES.deviceOffline) return "offline";
  return "api";
}

const PAYLOAD: Record<CloudCommand["type"], string> = { power: "setSwitch", level: "setLevel", endCook: "endCook" };

export class VeSyncClient implements ApplianceCloudClient {
  readonly #base: string;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #timeoutMs: number;

  constructor(options: VeSyncClientOptions = {}) {
    this.#base = (options.baseUrl ?? VESYNC_BASE_URL).replace(/\/+$/, "");
    this.#fetch = options.fetch ?? ((request) => fetch(request));
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  async signIn(email: string, password: string): Promise<CloudSession> {
    const result = await this.#post("/cloud/v1/user/login", {
      email,
      password: createHash("md5").update(password).digest("hex"),
      method: "login",
      userType: "1",
      devToken: "",
    });
    const { token, accountID } = result as { token?: string; accountID?: string | number };
    if (!token || accountID === undefined) throw new CloudError("the sign-in answer has no token", "api");
    return { token, accountId: String(accountID) };
  }

  async listDevices(session: CloudSession): Promise<CloudDevice[]> {
    const result = await this.#post("/cloud/v1/deviceManaged/devices", {
      ...this.#auth(session),
      method: "devices",
      pageNo: 1,
      pageSize: 100,
    });
    const list = ((result as { list?: unknown[] }).list ?? []) as Record<string, unknown>[];
    return list.map((entry) => ({
      cid: String(entry.cid),
      name: String(entry.deviceName ?? entry.cid),
      model: String(entry.deviceType ?? "unknown"),
      online: entry.connectionStatus === "online",
    }));
  }

  async status(session: CloudSession, device: CloudDevice): Promise<CloudStatus> {
    return (await this.#bypass(session, device, "getStatus", {})) as CloudStatus;
  }

  async command(session: CloudSession, device: CloudDevice, command: CloudCommand): Promise<void> {
    const { type, ...data } = command;
    await this.#bypass(session, device, PAYLOAD[type], data);
  }

  #auth(session: CloudSession) {
    return { token: session.token, accountID: session.accountId, acceptLanguage: "en", timeZone: "UTC", traceId: randomUUID() };
  }

  async #bypass(session: CloudSession, device: CloudDevice, method: string, data: Record<string, unknown>): Promise<unknown> {
    const outer = await this.#post("/cloud/v2/deviceManaged/bypassV2", {
      ...this.#auth(session),
      method: "bypassV2",
      cid: device.cid,
      configModel: device.model,
      payload: { method, source: "APP", data },
    });
    const inner = outer as { code?: number; result?: unknown; msg?: string };
    if (typeof inner.code === "number" && inner.code !== 0) {
      throw new CloudError(`${device.name}: ${inner.msg ?? `error ${inner.code}`}`, classify(inner.code));
    }
    return inner.result ?? {};
  }

  async #post(path: string, body: Record<string, unknown>): Promise<unknown> {
    let response: Response;
    try {
      response = await this.#fetch(
        new Request(`${this.#base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "accept-language": "en" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.#timeoutMs),
        }),
      );
    } catch (error) {
      throw new CloudError((error as Error).message, "network");
    }
    if (!response.ok) throw new CloudError(`HTTP ${response.status} from ${path}`, response.status >= 500 ? "network" : "api");
    const answer = (await response.json().catch(() => ({}))) as { code?: number; msg?: string; result?: unknown };
    if (answer.code !== 0) {
      const code = typeof answer.code === "number" ? answer.code : -1;
      throw new CloudError(answer.msg ?? `error ${code}`, classify(code));
    }
    return answer.result ?? {};
  }
}
