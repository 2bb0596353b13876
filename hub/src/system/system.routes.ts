import { Hono } from "hono";
import { collectSystemInfo, type SystemInfo, type SystemInfoOptions } from "./system-info.ts";

/**
 * `/api/system`: host, Node, memory, network (with what Matter would announce) and data-folder storage.
 *
 * The storage figure walks the data folder, so requests arriving while one walk is running share its result
 * instead of starting walks of their own (a UI polling from several tabs stays one walk at a time).
 */
export function systemRoutes(options: SystemInfoOptions): Hono {
  const app = new Hono();
  let inFlight: Promise<SystemInfo> | undefined;

  const collect = (): Promise<SystemInfo> => {
    if (!inFlight) {
      inFlight = collectSystemInfo(options).finally(() => {
        inFlight = undefined;
      });
    }
    return inFlight;
  };

  app.get("/info", async (c) => {
    const info = await collect();
    c.header("Cache-Control", "no-store");
    return c.json(info);
  });

  return app;
}
