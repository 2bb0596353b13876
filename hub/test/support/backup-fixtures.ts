/**
 * Backup test material without matter.js: stored bridges, hand-made backup ZIPs with a correct manifest (which a
 * test may then falsify), a byte-level picture of a data dir for "nothing changed" checks, and the backup routes
 * over a BackupService on a folder, as app.ts mounts them.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Hono } from "hono";
import { ZipFile } from "yazl";
import { memoryLogger } from "../../../lib/testing/fixtures.ts";
import { backupRoutes, restartPendingGuard } from "../../src/backup/backup.routes.ts";
import { BackupService, type BackupServiceOptions } from "../../src/backup/backup-service.ts";
import { hubErrorHandler } from "../../src/http/errors.ts";

/** A bridge as `bridges.json` stores it. */
export const storedBridge = (id: string, port: number) => ({
  id,
  name: `Bridge ${id}`,
  port,
  filter: { include: [], exclude: [], includeHidden: false },
  priority: 100,
  serverMode: false,
  autoStart: true,
  passcode: 20202021,
  discriminator: 3840,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
});

export const bridgesFile = (...bridges: unknown[]) => JSON.stringify({ version: 1, bridges });

/** Writes `content` (JSON unless a string) at `path` below `dir`, creating folders. */
export function put(dir: string, path: string, content: unknown): void {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
}

/** Every entry of the data dir (files by sha256, links by target), for "nothing changed" assertions. */
export function tree(dir: string, base = ""): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, base), { withFileTypes: true })) {
    const path = base ? `${base}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) result[path] = `-> ${readlinkSync(join(dir, path))}`;
    else if (entry.isDirectory()) Object.assign(result, tree(dir, path));
    else
      result[path] = createHash("sha256")
        .update(readFileSync(join(dir, path)))
        .digest("hex");
  }
  return result;
}

export async function zipBytes(zip: ZipFile): Promise<Buffer> {
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export interface Entry {
  name: string;
  data: Buffer | string;
  mode?: number;
}

export const sizeAndHash = ({ name, data }: Entry) => ({
  path: name,
  size: Buffer.byteLength(data),
  sha256: createHash("sha256").update(data).digest("hex"),
});

/** A backup ZIP of `entries` with a correct manifest, which `edit` may then falsify. */
export async function craft(entries: Entry[], edit: (manifest: Record<string, unknown>) => void = () => undefined) {
  const manifest: Record<string, unknown> = {
    format: "matter-hub.backup",
    formatVersion: 1,
    appVersion: "9.9.9",
    createdAt: new Date().toISOString(),
    includesIdentity: entries.some((e) => e.name.startsWith("matter/")),
    files: entries.map(sizeAndHash),
  };
  edit(manifest);
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), "manifest.json");
  for (const { name, data, mode } of entries) zip.addBuffer(Buffer.from(data), name, mode ? { mode } : {});
  return zipBytes(zip);
}

/** The backup routes over a BackupService on `dataDir`, with the restart guard and a stand-in for the rest. */
export function backupApp(dataDir: string, options: Partial<BackupServiceOptions> = {}) {
  const { log, lines } = memoryLogger();
  const counts = { quiesced: 0, restarts: 0 };
  const service = new BackupService({
    dataDir,
    appVersion: "9.9.9",
    log,
    quiesce: async () => void counts.quiesced++,
    ...options,
  });
  const app = new Hono();
  app.onError(hubErrorHandler(log));
  app.use(restartPendingGuard(service));
  app.route("/api/backup", backupRoutes({ service, log, requestRestart: () => counts.restarts++, restartDelayMs: 0 }));
  app.post("/api/matter/bridges", (c) => c.json({ ok: true }, 201));
  app.get("/api/matter/bridges", (c) => c.json([]));
  const download = async (query = "") => {
    const response = await app.request(`/api/backup/download${query}`);
    return { response, zip: Buffer.from(await response.arrayBuffer()) };
  };
  const upload = (path: "restore" | "restore/preview", zip: Buffer, restoreOptions?: unknown) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "backup.zip");
    if (restoreOptions !== undefined) form.append("options", JSON.stringify(restoreOptions));
    return app.request(`/api/backup/${path}`, { method: "POST", body: form });
  };
  return { service, app, counts, logLines: lines, download, upload };
}

/** The entry names of a ZIP, sorted. */
export async function entryNames(zip: Buffer): Promise<string[]> {
  const { default: yauzl } = await import("yauzl");
  const file = await yauzl.fromBufferPromise(zip);
  const found: string[] = [];
  for await (const entry of file.eachEntry()) found.push(entry.fileName);
  file.close();
  return found.sort();
}
