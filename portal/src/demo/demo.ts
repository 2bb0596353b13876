import { randomBytes } from "node:crypto";
import { type HomeserverSimulator, startHomeserverSimulator } from "../../../simulators/homeserver/index.ts";
import type { AuditActor } from "../audit/audit.service.ts";
import type { PortalContext } from "../context.ts";
import { DEMO_MAS_SERVER_NAME, type RunningMasDemo, startMasDemo } from "./demo-mas.ts";

export const DEMO_SERVER_SLUG = "demo";
export const DEMO_SERVER_NAME = "Demo homeserver (simulated)";
export const DEMO_ADMIN_EMAIL = "admin@demo.local";
/** Registration tokens put on the simulated homeserver at every demo start (its state lives in memory only). */
export const DEMO_TOKENS = [
  { token: "demo-welcome", uses_allowed: 50, label: "Demo: open invitation", note: "Created by demo mode" },
  { token: "demo-single-use", uses_allowed: 1, label: "Demo: one sign-up", note: "Created by demo mode" },
] as const;

const ACTOR: AuditActor = { email: "demo-setup", ip: "127.0.0.1" };

export interface RunningDemo {
  readonly homeserver: HomeserverSimulator;
  readonly serverId: string;
  /** The extra demo server of kind `mas` (demo-mas.ts). */
  readonly masDemo: RunningMasDemo;
  close(): Promise<void>;
}

/**
 * Demo mode: runs the homeserver simulator on 127.0.0.1 (random admin token, rate limits off so that a demo can
 * sign up many accounts) and makes it the default, enabled managed server "Demo homeserver (simulated)", with a
 * couple of tokens, plus a second, clearly named server of kind `mas` ("Demo MAS server (simulated)", demo-mas.ts).
 * Without PORTAL_ADMIN_*, the admin `admin@demo.local` gets a new random password at every
 * start, logged once at warn and labelled DEMO: the only place a password is ever logged, and only in demo mode.
 */
export async function startDemo(ctx: PortalContext): Promise<RunningDemo> {
  const log = ctx.log.child({ component: "demo" });
  const homeserver = await startHomeserverSimulator({
    serverName: "demo.local",
    rateLimit: false,
    log: ctx.log.child({ component: "demo-homeserver" }),
  });
  try {
    const { servers, tokens, auth } = ctx.services;
    const fields = {
      name: DEMO_SERVER_NAME,
      serverName: homeserver.serverName,
      internalUrl: homeserver.url,
      publicUrl: homeserver.url,
    };
    const existing = (await servers.list()).find((server) => server.slug === DEMO_SERVER_SLUG);
    if (existing && existing.name !== DEMO_SERVER_NAME) {
      // Never repoint a real server at the simulator.
      throw new Error(
        `demo mode: the slug "${DEMO_SERVER_SLUG}" belongs to the managed server "${existing.name}"; rename it or turn demo mode off`,
      );
    }
    // The simulator listens on a new port at every start: moving the URL there takes the simulator's token along.
    const server = existing
      ? await servers.update(existing.id, { ...fields, adminToken: homeserver.adminToken }, ACTOR)
      : (
          await servers.create(
            {
              ...fields,
              slug: DEMO_SERVER_SLUG,
              adminToken: homeserver.adminToken,
              kind: "synapse",
              masPublicUrl: null,
              notes: null,
              publicDomain: null,
              routePrefix: null,
              brandingProfileId: null,
            },
            ACTOR,
          )
        ).server;
    if (!server.enabled) await servers.act(server.id, { action: "enable" }, ACTOR);
    if (!server.isDefault) await servers.act(server.id, { action: "set_default" }, ACTOR);
    for (const token of DEMO_TOKENS) await tokens.create(server.id, { ...token, expiry_time: null }, ACTOR);

    if (!ctx.config.admin) {
      const password = randomBytes(12).toString("base64url");
      await auth.ensureAdmin(DEMO_ADMIN_EMAIL, password, "Demo administrator");
      log.warn(
        `DEMO MODE: portal admin login ${DEMO_ADMIN_EMAIL} / ${password} (new at every demo start; never used outside demo mode)`,
      );
    }
    const masDemo = await startMasDemo(ctx, ACTOR);
    log.warn({ url: homeserver.url }, `DEMO MODE: "${DEMO_SERVER_NAME}" is the default managed server`);
    log.warn({ url: masDemo.mas.url }, `DEMO MODE: "${DEMO_MAS_SERVER_NAME}" manages its accounts through a simulated MAS`);
    return {
      homeserver,
      serverId: server.id,
      masDemo,
      close: async () => {
        await masDemo.close();
        await homeserver.close();
      },
    };
  } catch (error) {
    await homeserver.close();
    throw error;
  }
}
