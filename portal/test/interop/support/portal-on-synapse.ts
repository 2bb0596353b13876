/**
 * The set-up of the portal's Synapse interop files: a real Synapse and a portal (in-process, as in `npm test`) with
 * Synapse as an enabled managed server, the bootstrap admin logged in, and the calls the files share.
 */
import assert from "node:assert/strict";
import type { PortalClient } from "../../support/portal-client.ts";
import { nextIp, removeDataDir, startTestPortal, type TestPortal } from "../../support/portal-harness.ts";
import { Synapse } from "./synapse.ts";

export const SERVER_NAME = "syn.test";
export const PASSWORD = "sign-up-password-1";

export interface PortalOnSynapse {
  synapse: Synapse;
  portal: TestPortal;
  admin: PortalClient;
  serverId: string;
  /** Milliseconds of the steps a file chose to time; printed by `stop`. */
  timings: Record<string, number | number[]>;
  timed<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** A managed server for the homeserver at `internalUrl` (enabled); its id. */
  addServer(fields: { slug: string; serverName: string; internalUrl: string; adminToken: string }): Promise<string>;
  /** `/api/admin/tokens<path>?serverId=…` */
  tokens(path?: string, server?: string): string;
  /** A token's row as Synapse's admin API gives it. */
  onSynapse(token: string, on?: Synapse): Promise<Record<string, unknown>>;
  /** A public sign-up from a fresh client address. */
  signUp(username: string, token: string, server?: string): ReturnType<PortalClient["post"]>;
  stop(): Promise<void>;
}

export async function startPortalOnSynapse(name: string): Promise<PortalOnSynapse> {
  const timings: Record<string, number | number[]> = {};
  const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[step] = Math.round(performance.now() - started);
    }
  };
  const [started, portalStarted] = await Promise.allSettled([
    timed("synapse start (keys, start, admin)", () => Synapse.start({ name, serverName: SERVER_NAME })),
    // The default outbound rules already allow loopback; naming 127.0.0.1 keeps the test independent of that.
    startTestPortal({ env: { PORTAL_OUTBOUND_ALLOW: "127.0.0.1" } }),
  ]);
  if (started.status === "rejected" || portalStarted.status === "rejected") {
    // Nothing may keep the test process alive after a failed start.
    if (portalStarted.status === "fulfilled") await portalStarted.value.stop();
    if (started.status === "fulfilled") await started.value.remove();
    throw started.status === "rejected" ? started.reason : (portalStarted as PromiseRejectedResult).reason;
  }
  const synapse = started.value;
  const portal = portalStarted.value;
  const admin = await portal.admin();
  const addServer: PortalOnSynapse["addServer"] = async (fields) => {
    const created = await admin.post("/api/admin/servers", {
      name: `Synapse ${fields.slug}`,
      publicUrl: `https://matrix.${fields.serverName}`,
      ...fields,
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.server.id as string;
    assert.equal((await admin.patch(`/api/admin/servers/${id}`, { action: "enable" })).status, 200);
    return id;
  };
  const serverId = await addServer({
    slug: "real-synapse",
    serverName: SERVER_NAME,
    internalUrl: synapse.url,
    adminToken: synapse.adminToken,
  });
  return {
    synapse,
    portal,
    admin,
    serverId,
    timings,
    timed,
    addServer,
    tokens: (path = "", server = serverId) => `/api/admin/tokens${path}?serverId=${server}`,
    onSynapse: async (token, on = synapse) => (await on.admin("GET", `/_synapse/admin/v1/registration_tokens/${token}`)).body,
    signUp: (username, token, server = serverId) =>
      portal
        .client({ ip: nextIp() })
        .post("/api/register", { username, password: PASSWORD, confirmPassword: PASSWORD, token, serverId: server }),
    async stop() {
      console.log(`timings (ms): ${JSON.stringify(timings)}`);
      await portal.stop();
      removeDataDir(portal.dataDir);
      await synapse.remove();
    },
  };
}
