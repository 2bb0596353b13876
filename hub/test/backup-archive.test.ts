import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, beforeEach, describe, it } from "node:test";
import { Hono } from "hono";
import { ZipFile } from "yazl";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import { backupRoutes, restartPendingGuard } from "../src/backup/backup.routes.ts";
import { BackupService } from "../src/backup/backup-service.ts";
import { hubErrorHandler } from "../src/http/errors.ts";
import {
  bridgesFile,
  craft,
  type Entry,
  put as putFile,
  sizeAndHash,
  storedBridge,
  tree,
  zipBytes,
} from "./support/backup-fixtures.ts";

const bridge = storedBridge;

/** A data dir with every kind of file the layout knows, and every kind it must leave out. */
function seed(dir: string): void {
  const put = (path: string, content: unknown) => putFile(dir, path, content);
  put("bridges.json", { version: 1, bridges: [bridge("b1", 5601)] });
  put("entity-mappings.json", { version: 1, bridges: { b1: {} } });
  put("identities/b1.json", { version: 1, next: 2, endpoints: {} });
  put("identities/orphan.json", { version: 1, next: 1, endpoints: {} });
  put("lock-credentials.json", { version: 1, credentials: {} });
  put("settings.json", { autoRecoveryEnabled: true, recoveryIntervalMs: 60000 });
  put("auth.json", { username: "admin", passwordHash: "scrypt$x" });
  put("plugins/b1/camera/config.json", { url: "rtsp://cam" });
  put("plugins/b1/camera/secrets.json", { password: "hunter2" });
  put("plugins/node_modules/evil/index.js", "evil()");
  put("matter/b1/driver.json", { kind: "file" });
  put("matter/b1/fabrics.fabrics", "[1,2,3]");
  put("matter/b1/matter.lock", "");
  put("matter/b1/matter.pid", "123");
  put("matter/b1/root.acl.tmp", "half");
  put("matter/b1.controllers.json", "[]");
  symlinkSync("/etc/hostname", join(dir, "plugins/b1/camera/link.json"));
}

const validBridges = bridgesFile(bridge("b9", 5609));
const setManifest = (field: string, value: unknown) => (manifest: Record<string, unknown>) => {
  manifest[field] = value;
};

async function zipOf(entries: Entry[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const { name, data } of entries) zip.addBuffer(Buffer.from(data), name);
  return zipBytes(zip);
}

/** Overwrites bytes inside the first entry's compressed data. */
function corrupt(zip: Buffer): Buffer {
  const at = zip.indexOf("bridges.json") + 40;
  for (let i = 0; i < 30; i++) zip[at + i] = 0xff;
  return zip;
}

/** 64 MB of zeros (about 64 KB deflated) declared, in the central directory and the manifest, as 100 bytes. */
async function zipBomb(): Promise<Buffer> {
  const files = [{ path: "bridges.json", size: 100, sha256: "0".repeat(64) }];
  const manifest = {
    format: "matter-hub.backup",
    formatVersion: 1,
    appVersion: "1",
    createdAt: new Date().toISOString(),
    includesIdentity: false,
    files,
  };
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), "manifest.json");
  zip.addBuffer(Buffer.alloc(64 << 20), "bridges.json");
  return patchDeclaredSize(await zipBytes(zip), "bridges.json", 100);
}

/** Replaces a same-length placeholder in every header of the ZIP (yazl refuses hostile names itself). */
function patchName(zip: Buffer, from: string, to: string): Buffer {
  assert.equal(from.length, to.length);
  const out = Buffer.from(zip);
  let at = out.indexOf(from);
  while (at !== -1) {
    out.write(to, at, "latin1");
    at = out.indexOf(from, at + 1);
  }
  return out;
}

/** Sets the declared uncompressed size of `name` in the central directory and the local header. */
function patchDeclaredSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = out.readUInt32LE(eocd + 16);
  for (let i = 0; i < out.readUInt16LE(eocd + 10); i++) {
    const nameLength = out.readUInt16LE(at + 28);
    const entryName = out.toString("utf8", at + 46, at + 46 + nameLength);
    if (entryName === name) {
      out.writeUInt32LE(size, at + 24);
      out.writeUInt32LE(size, out.readUInt32LE(at + 42) + 22);
    }
    at += 46 + nameLength + out.readUInt16LE(at + 30) + out.readUInt16LE(at + 32);
  }
  return out;
}

describe("backup download, restore preview and restore (archive level)", () => {
  // Not support/matter-fixtures.ts's tempDir: that module loads matter.js, ten seconds this test does not need.
  const dir = { path: mkdtempSync(join(tmpdir(), "backup-archive-")) };
  let quiesced = 0;
  let restarts = 0;
  let app: Hono;
  let service: BackupService;

  const build = (limits = {}) => {
    const { log } = memoryLogger();
    service = new BackupService({
      dataDir: dir.path,
      appVersion: "9.9.9",
      log,
      quiesce: async () => void quiesced++,
      limits,
    });
    app = new Hono();
    app.onError(hubErrorHandler(log));
    app.use(restartPendingGuard(service));
    app.route("/api/backup", backupRoutes({ service, log, requestRestart: () => restarts++, restartDelayMs: 0 }));
    app.post("/api/matter/bridges", (c) => c.json({ ok: true }, 201));
    app.get("/api/matter/bridges", (c) => c.json([]));
  };

  after(() => rmSync(dir.path, { recursive: true, force: true }));
  beforeEach(() => {
    rmSync(dir.path, { recursive: true, force: true });
    mkdirSync(dir.path);
    seed(dir.path);
    quiesced = 0;
    build();
  });

  const download = async (query = "") => {
    const response = await app.request(`/api/backup/download${query}`);
    return { response, zip: Buffer.from(await response.arrayBuffer()) };
  };
  const upload = (path: string, zip: Buffer, options?: unknown) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "backup.zip");
    if (options !== undefined) form.append("options", JSON.stringify(options));
    return app.request(`/api/backup/${path}`, { method: "POST", body: form });
  };
  const names = async (zip: Buffer) => {
    const { default: yauzl } = await import("yauzl");
    const file = await yauzl.fromBufferPromise(zip);
    const found: string[] = [];
    for await (const entry of file.eachEntry()) found.push(entry.fileName);
    return found.sort();
  };

  it("downloads a ZIP of the configuration only, as an attachment with a manifest", async () => {
    const { response, zip } = await download();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/zip");
    assert.match(response.headers.get("content-disposition") ?? "", /^attachment; filename="matter-hub-backup-[\d-]+\.zip"$/);
    // Lock PINs only on request (backup-lock-pins.test.ts).
    assert.deepEqual(await names(zip), [
      "bridges.json",
      "entity-mappings.json",
      "manifest.json",
      "plugins/b1/camera/config.json",
      "settings.json",
    ]);
    const preview = await upload("restore/preview", zip);
    assert.equal(preview.status, 200);
    const body = (await preview.json()) as { manifest: Record<string, unknown>; files: Record<string, string[]> };
    assert.equal(body.manifest.format, "matter-hub.backup");
    assert.equal(body.manifest.formatVersion, 1);
    assert.equal(body.manifest.appVersion, "9.9.9");
    assert.equal(body.manifest.includesIdentity, false);
    assert.equal(body.manifest.includesLockPins, false);
    assert.equal((body.manifest.files as unknown[]).length, 4);
    assert.deepEqual(body.files.added, []);
  });

  it("adds the Matter identity on request, never locks, pids, temp files, secrets, auth.json or npm folders", async () => {
    const { zip } = await download("?includeIdentity=true");
    const listed = await names(zip);
    for (const path of [
      "identities/b1.json",
      "matter/b1.controllers.json",
      "matter/b1/driver.json",
      "matter/b1/fabrics.fabrics",
    ]) {
      assert.ok(listed.includes(path), path);
    }
    assert.ok(!listed.some((path) => /matter\.(lock|pid)|\.tmp$|secrets|auth\.json|node_modules|orphan|link/.test(path)));
    assert.ok(!zip.includes("hunter2"), "no plugin password in the archive, not even compressed-away");
    const bad = await app.request("/api/backup/download?includeIdentity=yes");
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await bad.json()) as object), ["error"]);
  });

  it("previews without changing anything, then restores atomically keeping a copy of what it replaced", async () => {
    const original = tree(dir.path);
    const { zip } = await download("?includeIdentity=true");
    // The hub moves on: a second bridge, new settings gone, a fabric changed, a new plugin password.
    writeFileSync(
      join(dir.path, "bridges.json"),
      JSON.stringify({ version: 1, bridges: [bridge("b1", 5601), bridge("b2", 5602)] }),
    );
    rmSync(join(dir.path, "settings.json"));
    writeFileSync(join(dir.path, "matter/b1/fabrics.fabrics"), "[9]");
    writeFileSync(join(dir.path, "plugins/b1/camera/secrets.json"), '{"password":"new"}');
    const changed = tree(dir.path);

    const preview = await upload("restore/preview", zip);
    assert.equal(preview.status, 200);
    const body = (await preview.json()) as Record<string, unknown>;
    assert.deepEqual(body.bridges, [{ id: "b1", name: "Bridge b1", port: 5601, change: "replaced" }]);
    assert.deepEqual(body.removedBridges, [{ id: "b2", name: "Bridge b2" }]);
    assert.deepEqual((body.files as Record<string, string[]>).added, ["settings.json"]);
    assert.equal(body.includeIdentity, true);
    assert.deepEqual(tree(dir.path), changed, "preview changed nothing");
    assert.equal(quiesced, 0);

    const restored = await upload("restore", zip, { includeIdentity: true });
    assert.equal(restored.status, 200, await restored.clone().text());
    const result = (await restored.json()) as { restartRequired: boolean; replacedCopy: string };
    assert.equal(result.restartRequired, true);
    assert.equal(quiesced, 1, "bridges stopped before the swap");
    const now = tree(dir.path);
    for (const [path, hash] of Object.entries(original)) {
      if (path === "plugins/b1/camera/secrets.json") assert.equal(now[path], changed[path], "plugin secrets are left alone");
      else if (/matter\.(lock|pid)$|\.tmp$/.test(path))
        continue; // went to the copy with the identity they belonged to
      else assert.equal(now[path], hash, path);
    }
    assert.ok(!Object.keys(now).some((path) => path.startsWith(".restore-staging")), "staging removed");
    const copy = join(dir.path, result.replacedCopy);
    assert.equal(readFileSync(join(copy, "matter/b1/fabrics.fabrics"), "utf8"), "[9]");
    assert.match(readFileSync(join(copy, "bridges.json"), "utf8"), /b2/);
    assert.ok(readFileSync(join(copy, "restore.json"), "utf8").includes("restoredAt"));

    // Until the restart, changes are refused (the running services would write their old state back).
    assert.equal(service.restartPending, true);
    const refused = await app.request("/api/matter/bridges", { method: "POST" });
    assert.equal(refused.status, 503);
    assert.equal((await app.request("/api/matter/bridges")).status, 200);
    const restart = await app.request("/api/backup/restart", { method: "POST" });
    assert.equal(restart.status, 202);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(restarts, 1);
  });

  it("refuses to restore an identity the backup does not hold, and malformed uploads, with 400", async () => {
    const { zip } = await download();
    const before = tree(dir.path);
    for (const response of [
      await upload("restore", zip, { includeIdentity: true }),
      await upload("restore", zip, { includeIdentity: "yes" }),
      await app.request("/api/backup/restore", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }),
      await app.request("/api/backup/restore", { method: "POST", body: new FormData() }),
    ]) {
      assert.equal(response.status, 400);
      assert.deepEqual(Object.keys((await response.json()) as object), ["error"]);
    }
    assert.deepEqual(tree(dir.path), before);
    assert.equal(quiesced, 0);
  });

  describe("hostile archives: 400 {error}, data dir byte for byte unchanged", () => {
    const b9 = { name: "bridges.json", data: validBridges };
    const cases: [string, () => Promise<Buffer>, RegExp][] = [
      [
        "path traversal",
        async () => patchName(await craft([{ name: "zz/x", data: "x" }]), "zz/x", "../x"),
        /unsafe name \(path traversal: \.\.\/x\)/,
      ],
      [
        "absolute path",
        async () => patchName(await craft([{ name: "zetc/x", data: "x" }]), "zetc/x", "/etc/x"),
        /unsafe name \(absolute path/,
      ],
      [
        "drive letter",
        async () => patchName(await craft([{ name: "Cz/x", data: "x" }]), "Cz/x", "C:/x"),
        /unsafe name \(absolute path/,
      ],
      [
        "backslash",
        async () => patchName(await craft([{ name: "zz_x", data: "x" }]), "zz_x", "zz\\x"),
        /unsafe name \(backslash in name/,
      ],
      ["symlink entry", () => craft([{ name: "bridges.json", data: "/etc/passwd", mode: 0o120777 }]), /symbolic link/],
      ["entry outside the layout", () => craft([{ name: "run.sh", data: "rm -rf /" }]), /not part of/],
      ["auth.json", () => craft([{ name: "auth.json", data: "{}" }]), /not part of/],
      ["a plugin secret", () => craft([{ name: "plugins/b9/p/secrets.json", data: "{}" }]), /not part of/],
      ["npm folder", () => craft([{ name: "plugins/b9/node_modules/x.js", data: "x" }]), /not part of/],
      ["duplicate entries", () => craft([b9, b9]), /twice/],
      ["unknown format version", () => craft([b9], setManifest("formatVersion", 2)), /unsupported backup format version 2/],
      ["another format", () => craft([], setManifest("format", "other.backup")), /not a Matter Hub backup/],
      ["sha256 mismatch", () => craft([b9], setManifest("files", [{ ...sizeAndHash(b9), sha256: "0".repeat(64) }])), /sha256/],
      ["file missing from the manifest", () => craft([b9], setManifest("files", [])), /not in the manifest/],
      ["no manifest", () => zipOf([b9]), /no manifest/],
      ["identity of an unknown bridge", () => craft([b9, { name: "matter/zz/fabrics", data: "[]" }]), /belongs to no bridge/],
      ["an invalid bridges.json", () => craft([{ name: "bridges.json", data: bridgesFile(bridge("b9", 80)) }]), /port/],
      [
        "not a ZIP",
        async () => Buffer.from("PK\u0003\u0004 certainly not a zip file"),
        /^Invalid backup: this file is not a complete ZIP archive\./,
      ],
      ["truncated", async () => (await craft([b9])).subarray(0, 150), /cut short \(an interrupted download or copy\)/],
      [
        "corrupt entry data",
        () => craft([{ ...b9, data: validBridges.repeat(20) }]).then(corrupt),
        /damaged inside the ZIP archive|sha256/,
      ],
      ["zip bomb lying about its size", () => zipBomb(), /beyond its declared size|too many bytes/],
      [
        "an entry declaring 300 MB",
        async () => patchDeclaredSize(await craft([b9]), "bridges.json", 300 << 20),
        /larger than 20 MB/,
      ],
    ];

    for (const [name, make, message] of cases) {
      it(name, async () => {
        const zip = await make();
        const before = tree(dir.path);
        for (const path of ["restore/preview", "restore"]) {
          const response = await upload(path, zip, {});
          const body = (await response.json()) as { error: string };
          assert.equal(response.status, 400, `${path}: ${JSON.stringify(body)}`);
          assert.deepEqual(Object.keys(body), ["error"]);
          assert.match(body.error, message);
          // The ZIP library's own words (signatures, central directory) are not for the person who chose the file.
          assert.doesNotMatch(body.error, /signature|central directory|fileName|0x[0-9a-f]+/i);
        }
        assert.deepEqual(tree(dir.path), before);
        assert.equal(quiesced, 0);
        assert.equal(service.restartPending, false);
      });
    }

    it("an upload or contents over the limits", async () => {
      const { zip } = await download("?includeIdentity=true");
      build({ maxArchiveBytes: 500 });
      let response = await upload("restore", zip);
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { error: string }).error, /larger than/);
      build({ maxTotalBytes: 100 });
      response = await upload("restore", zip);
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { error: string }).error, /uncompressed/);
    });
  });
});
