/**
 * A tiny npm registry for tests, on 127.0.0.1: it serves the packuments and tarballs of archives published to it
 * (the two requests `npm install <name>` makes), so installing by package name is exercised with the real npm
 * client and no internet. Requests are counted per path; `offline` makes every request fail with 503;
 * `stallTarballs` holds tarball downloads unanswered (until it is cleared or the registry closes), so a test can
 * cancel an install while npm waits for its download.
 */
import { createHash } from "node:crypto";
import { Hono } from "hono";
import { type RunningHttpServer, startHttpServer } from "../../../../lib/http-server.ts";
import type { Logger } from "../../../../lib/logger.ts";
import { readPackageArchive } from "../tar-reader.ts";

interface Published {
  manifest: Record<string, unknown>;
  archive: Uint8Array;
}

export interface FakeNpmRegistry {
  /** The registry URL, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** Publishes an `npm pack` archive under the name and version of its package.json. */
  publish(archive: Uint8Array): { name: string; version: string };
  /** GET requests received per path. */
  readonly requests: Map<string, number>;
  offline: boolean;
  stallTarballs: boolean;
  close(): Promise<void>;
}

export async function startFakeNpmRegistry(log: Logger): Promise<FakeNpmRegistry> {
  const packages = new Map<string, Map<string, Published>>();
  const requests = new Map<string, number>();
  const app = new Hono();
  let server: RunningHttpServer | undefined;
  const stalled = new Set<() => void>();
  let stall = false;
  const registry = {
    offline: false,
    get stallTarballs() {
      return stall;
    },
    set stallTarballs(value: boolean) {
      stall = value;
      if (!value) for (const release of stalled) release();
    },
    requests,
    get url() {
      return `http://127.0.0.1:${server?.port}/`;
    },
    publish(archive: Uint8Array) {
      const manifest = readPackageArchive(archive).manifest as Record<string, unknown>;
      const name = String(manifest.name);
      const version = String(manifest.version);
      const versions = packages.get(name) ?? new Map<string, Published>();
      versions.set(version, { manifest, archive });
      packages.set(name, versions);
      return { name, version };
    },
    close: async () => {
      for (const release of stalled) release();
      await server?.close();
    },
  };
  const tarballName = (name: string, version: string) => `${name.split("/").pop()}-${version}.tgz`;
  app.use(async (c, next) => {
    const path = decodeURIComponent(c.req.path);
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (registry.offline) return c.text("registry offline", 503);
    await next();
  });
  // Scoped names arrive as `@scope%2fname`: one segment.
  app.get("/:name/-/:file", async (c) => {
    if (stall) {
      await new Promise<void>((resolve) => {
        const release = () => {
          stalled.delete(release);
          resolve();
        };
        stalled.add(release);
      });
    }
    const name = decodeURIComponent(c.req.param("name"));
    for (const [version, published] of packages.get(name) ?? []) {
      if (tarballName(name, version) === c.req.param("file")) {
        return c.body(Buffer.from(published.archive), 200, { "content-type": "application/octet-stream" });
      }
    }
    return c.json({ error: "not found" }, 404);
  });
  app.get("/:name", (c) => {
    const name = decodeURIComponent(c.req.param("name"));
    const versions = packages.get(name);
    if (!versions) return c.json({ error: "not found" }, 404);
    const entries = [...versions].map(([version, { manifest, archive }]) => {
      const tarball = `${registry.url}${name.replace("/", "%2f")}/-/${tarballName(name, version)}`;
      const dist = {
        tarball,
        shasum: createHash("sha1").update(archive).digest("hex"),
        integrity: `sha512-${createHash("sha512").update(archive).digest("base64")}`,
      };
      return [version, { ...manifest, _id: `${name}@${version}`, dist }] as const;
    });
    const latest = entries.at(-1)?.[0];
    return c.json({ name, "dist-tags": { latest }, versions: Object.fromEntries(entries) });
  });
  server = await startHttpServer({ app, host: "127.0.0.1", port: 0, log });
  return registry;
}
