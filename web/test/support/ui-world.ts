import type { Browser, BrowserContext, Page } from "playwright-core";
import type { HomeSnapshot } from "../../../hub/src/home-assistant/types.ts";
import type { PluginTuning } from "../../../hub/src/plugins/plugin-service.ts";
import { createTestHub, type TestHub } from "../../../hub/test/support/test-context.ts";
import { type HaSimulator, startHaSimulator } from "../../../simulators/home-assistant/index.ts";
import { buildUi, contextOptions, launchChromium, type PageOptions } from "./browser.ts";
import { type IngressProxy, startIngressProxy } from "./ingress-proxy.ts";

export { ARTIFACTS } from "./browser.ts";

export interface UiWorld {
  sim: HaSimulator;
  hub: TestHub;
  proxy: IngressProxy;
  /** The hub's own HTTP port (behind the proxy). */
  httpPort: number;
  browser: Browser;
  /** Requests the pages made outside the ingress prefix (must stay empty). */
  strayRequests: string[];
  newPage(options?: PageOptions): Promise<{ page: Page; context: BrowserContext }>;
  /** The hub's API directly (not through the browser). */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export interface UiWorldOptions {
  /** The hub's plugin tuning (createTestHub's `plugins`): npm settings, a simulated cloud, short time-outs. */
  plugins?: PluginTuning;
}

/**
 * The real hub (hub.ts wiring, listening on a loopback port) over an HA simulator with `home`, the freshly built UI,
 * a Supervisor-like ingress proxy in front, and headless Chromium.
 */
export async function startUiWorld(home: HomeSnapshot, options: UiWorldOptions = {}): Promise<UiWorld> {
  const webDir = await buildUi("hub");
  // Whatever started before a failure is closed again: a half-built world would keep the test process alive.
  const started: (() => Promise<unknown>)[] = [];
  const unwind = async () => {
    for (const close of started.reverse()) await close().catch(() => undefined);
  };
  let sim: HaSimulator;
  let hub: TestHub;
  let proxy: IngressProxy;
  let browser: Browser;
  let http: { port: number };
  try {
    sim = await startHaSimulator({ token: "t", home, motionMs: 0 });
    const simulator = sim;
    started.push(() => simulator.close());
    hub = await createTestHub({
      ha: { url: sim.url, token: "t" },
      start: true,
      env: { HUB_WEB_DIR: webDir },
      plugins: options.plugins,
    });
    const testHub = hub;
    started.push(() => testHub.stop());
    await hub.homeAssistant.whenLoaded();
    http = await hub.hub.listen();
    proxy = await startIngressProxy(http.port);
    const ingress = proxy;
    started.push(() => ingress.close());
    browser = await launchChromium();
  } catch (error) {
    await unwind();
    throw error;
  }
  const strayRequests: string[] = [];
  const contexts: BrowserContext[] = [];

  return {
    sim,
    hub,
    proxy,
    httpPort: http.port,
    browser,
    strayRequests,
    async newPage(options = {}) {
      const context = await browser.newContext(contextOptions(options, 800));
      contexts.push(context);
      const page = await context.newPage();
      page.on("request", (request) => {
        const url = request.url();
        const underIngress = /^http:\/\/127\.0\.0\.1:\d+\/api\/hassio_ingress\/[a-z]+\//.test(url);
        if (!underIngress && !url.startsWith("blob:") && !url.startsWith("data:")) strayRequests.push(url);
      });
      page.on("websocket", (socket) => {
        if (!/^ws:\/\/127\.0\.0\.1:\d+\/api\/hassio_ingress\/[a-z]+\/api\/ws$/.test(socket.url()))
          strayRequests.push(socket.url());
      });
      return { page, context };
    },
    async api(method, path, body) {
      const response = await hub.app.request(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON (a ZIP, the UI): keep the text.
      }
      return { status: response.status, body: parsed as never };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await proxy.close();
      await hub.stop();
      await sim.close();
    },
  };
}
