/**
 * `/api/plugins` (docs/plugins.md "Endpoints"; response bodies in its "HTTP bodies"). Package routes
 * act on the hub; `/:bridgeId/:pluginName/...` act on one bridge (scoped names such as `@scope/name` may be sent
 * as they are or URL-encoded). Server Mode bridges answer 409: they host no plugins.
 * Mount: `app.route("/api/plugins", pluginRoutes(ctx.plugins, ctx.bridges))`.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { conflict, HttpError, notFound } from "../../../lib/http-error.ts";
import { validate } from "../../../lib/validate.ts";
import type { BridgeService } from "../bridges/bridge-service.ts";
import { HUB_PLUGIN_API_VERSION } from "./api.ts";
import { installJobRoutes, readArchive, uploadBody } from "./install-jobs.routes.ts";
import { parsePackageSpec } from "./installer.ts";
import { PluginPackageError } from "./manifest.ts";
import { NpmError } from "./npm-runner.ts";
import type { PluginService } from "./plugin-service.ts";

const PackageSchema = v.object({ packageName: v.pipe(v.string(), v.trim(), v.nonEmpty("packageName must not be empty")) });
const LocalSchema = v.object({ path: v.pipe(v.string(), v.nonEmpty("path must not be empty")) });
const ConfigSchema = v.object({ config: v.record(v.string(), v.unknown()) });

/** The note a Server Mode bridge shows instead of plugins. */
export const SERVER_MODE_NOTE = "This bridge runs in Server Mode: it hosts no plugins, built-in ones included.";

/** Package problems and npm failures are the client's 400, with the reason. */
async function packageOperation<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PluginPackageError || error instanceof NpmError) throw new HttpError(400, error.message);
    throw error;
  }
}

export function pluginRoutes(plugins: PluginService, bridges: BridgeService): Hono {
  const app = new Hono();
  const catalog = plugins.catalog;

  app.get("/", async (c) => {
    const perBridge = await Promise.all(
      bridges.list().map(async (bridge) => {
        const host = plugins.host(bridge.id);
        return {
          bridgeId: bridge.id,
          bridgeName: bridge.name,
          bridgeStatus: bridge.status,
          serverMode: bridge.serverMode,
          note: bridge.serverMode ? SERVER_MODE_NOTE : null,
          plugins: host ? await host.infos() : [],
          domainMappings: host && !bridge.serverMode ? host.domainMappings() : [],
        };
      }),
    );
    return c.json({
      apiVersion: HUB_PLUGIN_API_VERSION,
      builtin: catalog.builtins(),
      packages: catalog.packages(),
      bridges: perBridge,
    });
  });

  // The spec's synchronous installs answer when the install ended; they run as jobs too, so the Plugins page shows
  // (and can cancel) an install a script started.
  app.post("/install", validate("json", PackageSchema), async (c) => {
    const spec = c.req.valid("json").packageName;
    const result = await packageOperation(() => {
      parsePackageSpec(spec); // a name npm cannot take is refused before it becomes a job
      const { settled } = plugins.installs.start({ type: "registry", spec }, (watch) => catalog.install(spec, watch));
      return settled;
    });
    return c.json(result, 201);
  });
  app.post("/upload", uploadBody(plugins), async (c) => {
    const archive = await readArchive(c);
    const source = { type: "upload" as const, file: "upload.tgz", bytes: archive.length };
    const result = await packageOperation(
      () => plugins.installs.start(source, (watch) => catalog.upload(archive, watch)).settled,
    );
    return c.json(result, 201);
  });
  installJobRoutes(app, plugins);
  app.post("/install-local", validate("json", LocalSchema), async (c) =>
    c.json(await packageOperation(() => catalog.installLocal(c.req.valid("json").path)), 201),
  );
  app.post("/uninstall", validate("json", PackageSchema), async (c) => {
    const name = c.req.valid("json").packageName;
    await packageOperation(() => catalog.uninstall(name));
    return c.json({ uninstalled: name });
  });

  /** The slot of a plugin on a standard bridge, or the right 404/409. */
  const slotOf = async (bridgeId: string, pluginName: string) => {
    const bridge = bridges.record(bridgeId);
    if (bridge.serverMode) throw conflict(`Bridge "${bridge.name}" runs in Server Mode and hosts no plugins`);
    const slot = await plugins.host(bridgeId)?.slot(decodeURIComponent(pluginName));
    if (!slot) throw notFound(`Plugin not found: ${decodeURIComponent(pluginName)}`);
    return slot;
  };
  const action = (name: "enable" | "disable" | "reset") =>
    app.post(`/:bridgeId/:pluginName{.+}/${name}`, async (c) => {
      const slot = await slotOf(c.req.param("bridgeId"), c.req.param("pluginName"));
      await slot[name]();
      return c.json({ bridgeId: c.req.param("bridgeId"), plugin: await slot.info() });
    });
  action("enable");
  action("disable");
  action("reset");
  app.get("/:bridgeId/:pluginName{.+}/config-schema", async (c) => {
    const slot = await slotOf(c.req.param("bridgeId"), c.req.param("pluginName"));
    return c.json({ bridgeId: c.req.param("bridgeId"), plugin: slot.name, schema: await slot.configSchema() });
  });
  app.post("/:bridgeId/:pluginName{.+}/config", validate("json", ConfigSchema), async (c) => {
    const slot = await slotOf(c.req.param("bridgeId"), c.req.param("pluginName"));
    const result = await slot.configure(c.req.valid("json").config);
    return c.json({ bridgeId: c.req.param("bridgeId"), ...result, plugin: await slot.info() });
  });
  return app;
}
