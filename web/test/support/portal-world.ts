import { deflateSync } from "node:zlib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { RunningMasDemo } from "../../../portal/src/demo/demo-mas.ts";
import type { PortalClient } from "../../../portal/test/support/portal-client.ts";
import { removeDataDir, startTestPortal, type TestPortal } from "../../../portal/test/support/portal-harness.ts";
import type { HomeserverSimulator } from "../../../simulators/homeserver/index.ts";
import { buildUi, contextOptions, launchChromium, type PageOptions } from "./browser.ts";

export { ARTIFACTS } from "./browser.ts";

export interface PortalWorld {
  portal: TestPortal;
  /** The demo homeserver (the simulator demo mode starts): where sign-ups land. */
  homeserver: HomeserverSimulator;
  /** The demo server's id. */
  serverId: string;
  /** The demo server of kind `mas`: its MAS simulator, the homeserver delegating to it, and its id (issue 23). */
  masDemo: RunningMasDemo;
  /** An API client logged in as the bootstrap admin (for checks the test makes behind the UI's back). */
  admin: PortalClient;
  browser: Browser;
  /** Requests the pages made to any other origin than the portal's (must stay empty: relative URLs only). */
  strayRequests: string[];
  /** Console messages about the Content-Security-Policy (must stay empty: the UI works under the portal's CSP). */
  cspViolations: string[];
  newPage(options?: PageOptions & { clipboard?: boolean }): Promise<{ page: Page; context: BrowserContext }>;
  close(): Promise<void>;
}

/**
 * The real portal (startPortal, as main.ts runs it) in demo mode, which starts the homeserver simulator as its default
 * server, serving the freshly built UI; plus headless Chromium. PORTAL_ADMIN_* of the harness log the admin in.
 */
export async function startPortalWorld(): Promise<PortalWorld> {
  const webDir = await buildUi("portal");
  const portal = await startTestPortal({ env: { PORTAL_DEMO: "1", PORTAL_WEB_DIR: webDir } });
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await portal.stop();
    removeDataDir(portal.dataDir);
    throw error;
  }
  const demo = portal.running.demo;
  if (!demo) throw new Error("demo mode did not start");
  const contexts: BrowserContext[] = [];
  const strayRequests: string[] = [];
  const cspViolations: string[] = [];
  const origin = new URL(portal.url).origin;
  return {
    portal,
    homeserver: demo.homeserver,
    serverId: demo.serverId,
    masDemo: demo.masDemo,
    admin: await portal.admin(),
    browser,
    strayRequests,
    cspViolations,
    async newPage(options = {}) {
      const context = await browser.newContext(contextOptions(options, 860));
      if (options.clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      page.on("request", (request) => {
        const url = request.url();
        if (!url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) strayRequests.push(url);
      });
      return { page, context };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await portal.stop();
      removeDataDir(portal.dataDir);
    },
  };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  let crc = 0xffffffff;
  for (const byte of body) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return Buffer.concat([head, body, tail]);
}

/** A `width`×`height` RGBA PNG whose pixels `paint(x, y)` gives: logos and hero pictures for the screenshots. */
export function paintPng(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number, number],
): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(...paint(x, y));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
