import type { HomeserverSimulator, HomeserverSimulatorOptions } from "../../../simulators/homeserver/index.ts";
import { type MasSimulator, type MasSimulatorOptions, startMasSimulator } from "../../../simulators/mas/index.ts";
import type { PortalClient } from "./portal-client.ts";
import { removeDataDir, startSimulator, startTestPortal, type TestPortal, type TestPortalOptions } from "./portal-harness.ts";

/** A clock for the MAS simulator that tests move on their own (the portal's has `clockOffset`). */
export class MovableClock {
  offset = 0;
  readonly now = (): number => Date.now() + this.offset;
}

/**
 * Starts a MAS simulator and a homeserver simulator that delegates to it (auth metadata and the client well-known
 * name the MAS as issuer), both on `serverName`.
 */
export async function startMasPair(
  serverName: string,
  options: { mas?: MasSimulatorOptions; homeserver?: HomeserverSimulatorOptions } = {},
): Promise<{ mas: MasSimulator; hs: HomeserverSimulator; clock: MovableClock }> {
  const clock = new MovableClock();
  const mas = await startMasSimulator({ serverName, now: clock.now, ...options.mas });
  const hs = await startSimulator({
    serverName,
    delegatedAuth: true,
    authIssuer: mas.issuer,
    serveClientWellKnown: true,
    ...options.homeserver,
  });
  return { mas, hs, clock };
}

let counter = 0;

/** Creates a managed server of kind `mas` for `hs` and `mas` (enabled unless `enable: false`); fails loudly otherwise. */
export async function addMasServer(
  admin: PortalClient,
  hs: HomeserverSimulator,
  mas: MasSimulator,
  options: { enable?: boolean; fields?: Record<string, unknown>; saveAnyway?: boolean } = {},
): Promise<Record<string, unknown> & { id: string }> {
  counter += 1;
  const created = await admin.post(
    `/api/admin/servers${options.saveAnyway ? "?saveAnyway=true" : ""}`,
    masServerBody(hs, mas, options.fields),
  );
  if (created.status !== 201) throw new Error(`MAS server creation failed: ${created.text}`);
  const server = created.body.server as Record<string, unknown> & { id: string };
  if (options.enable === false) return server;
  const enabled = await admin.patch(`/api/admin/servers/${server.id}`, { action: "enable" });
  if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.text}`);
  return enabled.body.server as Record<string, unknown> & { id: string };
}

/** The create body of a MAS server for these simulators. */
export function masServerBody(hs: HomeserverSimulator, mas: MasSimulator, fields: Record<string, unknown> = {}) {
  counter += 1;
  return {
    kind: "mas",
    name: `MAS server ${counter}`,
    slug: `mas-${counter}-${Date.now().toString(36)}`,
    serverName: hs.serverName,
    internalUrl: hs.url,
    publicUrl: `https://matrix.${hs.serverName}`,
    masUrl: mas.url,
    masClientId: mas.client.clientId,
    masClientSecret: mas.client.clientSecret,
    ...fields,
  };
}

export interface PortalWithMas {
  portal: TestPortal;
  hs: HomeserverSimulator;
  mas: MasSimulator;
  /** The MAS simulator's clock. */
  clock: MovableClock;
  admin: PortalClient;
  serverId: string;
}

/** A portal, a delegating homeserver and its MAS, the admin logged in and the pair added as an enabled MAS server. */
export async function startPortalWithMas(
  serverName: string,
  options: { mas?: MasSimulatorOptions; portal?: TestPortalOptions; server?: boolean } = {},
): Promise<PortalWithMas> {
  const [portal, pair] = await Promise.all([
    startTestPortal(options.portal),
    startMasPair(serverName, { mas: options.mas ?? {} }),
  ]);
  const admin = await portal.admin();
  const serverId = options.server === false ? "" : (await addMasServer(admin, pair.hs, pair.mas)).id;
  return { portal, ...pair, admin, serverId };
}

export async function stopPortalWithMas(setup: {
  portal: TestPortal;
  hs: HomeserverSimulator;
  mas: MasSimulator;
}): Promise<void> {
  await setup.portal.stop();
  await setup.hs.close();
  await setup.mas.close();
  removeDataDir(setup.portal.dataDir);
}
