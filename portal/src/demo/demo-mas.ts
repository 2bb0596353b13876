import { type HomeserverSimulator, startHomeserverSimulator } from "../../../simulators/homeserver/index.ts";
import { type MasSimulator, startMasSimulator } from "../../../simulators/mas/index.ts";
import type { AuditActor } from "../audit/audit.service.ts";
import type { PortalContext } from "../context.ts";

export const DEMO_MAS_SERVER_SLUG = "demo-mas";
export const DEMO_MAS_SERVER_NAME = "Demo MAS server (simulated)";
/** Registration tokens put on the simulated MAS at every demo start (its state lives in memory only). */
export const DEMO_MAS_TOKENS = [
  { token: "demo-mas-welcome", uses_allowed: 20, label: "Demo (MAS): open invitation", note: "Created by demo mode" },
] as const;

export interface RunningMasDemo {
  readonly mas: MasSimulator;
  readonly homeserver: HomeserverSimulator;
  readonly serverId: string;
  close(): Promise<void>;
}

/**
 * The second demo server (issue 23): a simulated homeserver that delegates its accounts to a simulated MAS, managed as
 * a server of kind `mas` named "Demo MAS server (simulated)", enabled but not the default, with one token. The MAS
 * simulator plays released MAS (no `?token=` pre-filling), as a real MAS would today.
 */
export async function startMasDemo(ctx: PortalContext, actor: AuditActor): Promise<RunningMasDemo> {
  const mas = await startMasSimulator({ serverName: "mas.demo.local", log: ctx.log.child({ component: "demo-mas" }) });
  let homeserver: HomeserverSimulator | undefined;
  try {
    homeserver = await startHomeserverSimulator({
      serverName: "mas.demo.local",
      delegatedAuth: true,
      authIssuer: mas.issuer,
      serveClientWellKnown: true,
      rateLimit: false,
      log: ctx.log.child({ component: "demo-mas-homeserver" }),
    });
    const { servers, tokens } = ctx.services;
    const fields = {
      name: DEMO_MAS_SERVER_NAME,
      serverName: homeserver.serverName,
      internalUrl: homeserver.url,
      publicUrl: homeserver.url,
      masUrl: mas.url,
      masClientId: mas.client.clientId,
      masClientSecret: mas.client.clientSecret,
    };
    const existing = (await servers.list()).find((server) => server.slug === DEMO_MAS_SERVER_SLUG);
    if (existing && existing.name !== DEMO_MAS_SERVER_NAME) {
      throw new Error(
        `demo mode: the slug "${DEMO_MAS_SERVER_SLUG}" belongs to the managed server "${existing.name}"; rename it or turn demo mode off`,
      );
    }
    // Both simulators listen on new ports at every start: the record moves there with the new client's secret.
    const server = existing
      ? await servers.update(existing.id, { ...fields, kind: "mas" }, actor)
      : (
          await servers.create(
            {
              ...fields,
              kind: "mas",
              slug: DEMO_MAS_SERVER_SLUG,
              masPublicUrl: null,
              notes: "Demo mode: accounts of this simulated homeserver are created by a simulated Matrix Authentication Service",
              publicDomain: null,
              routePrefix: null,
              brandingProfileId: null,
            },
            actor,
          )
        ).server;
    if (!server.enabled) await servers.act(server.id, { action: "enable" }, actor);
    for (const token of DEMO_MAS_TOKENS) await tokens.create(server.id, { ...token, expiry_time: null }, actor);
    const started = homeserver;
    return {
      mas,
      homeserver: started,
      serverId: server.id,
      close: async () => {
        await started.close();
        await mas.close();
      },
    };
  } catch (error) {
    await homeserver?.close();
    await mas.close();
    throw error;
  }
}
