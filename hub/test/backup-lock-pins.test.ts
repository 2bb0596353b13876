import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { tempDir } from "../../lib/testing/fixtures.ts";
import { backupApp, bridgesFile, craft, entryNames, put, storedBridge, tree } from "./support/backup-fixtures.ts";

const PINS_FILE = "lock-credentials.json";
/** A PIN hash as the lock credential service stores it (docs/lock-credentials.md). */
const pins = (hash: string) => ({
  version: 1,
  credentials: {
    "lock.front_door": {
      entityId: "lock.front_door",
      enabled: true,
      pinHash: `scrypt$32768$8$1$c2FsdA$${hash}`,
      createdAt: "2025-01-01T10:00:00.000Z",
      updatedAt: "2025-01-01T10:00:00.000Z",
      lastUsedAt: null,
      failedAttempts: 0,
    },
  },
});

interface Preview {
  manifest: { includesLockPins?: boolean };
  includeLockPins: boolean;
  files: { added: string[]; replaced: string[]; removed: string[] };
}

describe("lock PIN hashes travel in a backup only when asked for", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  const data = () => join(work.path, "data");
  let world: ReturnType<typeof backupApp>;
  const currentPins = () => readFileSync(join(data(), PINS_FILE), "utf8");

  before(async () => {
    work = await tempDir("backup-lock-pins");
  });
  after(() => work.remove());
  beforeEach(() => {
    rmSync(data(), { recursive: true, force: true });
    mkdirSync(data());
    put(data(), "bridges.json", { version: 1, bridges: [storedBridge("b1", 5601)] });
    put(data(), PINS_FILE, pins("aGFzaC1hdC1iYWNrdXA"));
    world = backupApp(data());
  });

  const preview = async (zip: Buffer, options?: unknown) => {
    const response = await world.upload("restore/preview", zip, options);
    assert.equal(response.status, 200);
    return (await response.json()) as Preview;
  };

  it("leaves the PIN hashes out of a download unless includeLockPins=true", async () => {
    const plain = await world.download();
    assert.equal(plain.response.status, 200);
    assert.ok(!(await entryNames(plain.zip)).includes(PINS_FILE));
    assert.ok(!plain.zip.includes("aGFzaC1hdC1iYWNrdXA"), "no hash in the archive, not even compressed away");
    assert.equal((await preview(plain.zip)).manifest.includesLockPins, false);

    const withPins = await world.download("?includeLockPins=true");
    assert.ok((await entryNames(withPins.zip)).includes(PINS_FILE));
    assert.equal((await preview(withPins.zip)).manifest.includesLockPins, true);

    const bad = await world.app.request("/api/backup/download?includeLockPins=yes");
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await bad.json()) as object), ["error"]);
  });

  it("a backup without PINs keeps this hub's PINs; asking for its PINs is a 400", async () => {
    const { zip } = await world.download();
    put(data(), PINS_FILE, pins("bmV3ZXItaGFzaA"));
    const now = currentPins();
    const described = await preview(zip);
    assert.equal(described.includeLockPins, false);
    assert.ok(![...described.files.removed, ...described.files.replaced].includes(PINS_FILE));
    const asked = await world.upload("restore", zip, { includeLockPins: true });
    assert.equal(asked.status, 400);
    assert.match(((await asked.json()) as { error: string }).error, /holds no lock PINs/);
    const restored = await world.upload("restore", zip);
    assert.equal(restored.status, 200, await restored.clone().text());
    assert.equal(currentPins(), now, "the PINs set since the backup are still there");
  });

  it("a backup with PINs restores them, unless includeLockPins is false", async () => {
    const { zip } = await world.download("?includeLockPins=true");
    const atBackup = currentPins();
    put(data(), PINS_FILE, pins("bmV3ZXItaGFzaA"));
    const newer = currentPins();

    const kept = await preview(zip, { includeLockPins: false });
    assert.ok(![...kept.files.removed, ...kept.files.replaced].includes(PINS_FILE));
    assert.equal((await world.upload("restore", zip, { includeLockPins: false })).status, 200);
    assert.equal(currentPins(), newer);

    world = backupApp(data());
    const described = await preview(zip);
    assert.equal(described.includeLockPins, true);
    assert.deepEqual(described.files.replaced.includes(PINS_FILE), true);
    assert.equal((await world.upload("restore", zip)).status, 200);
    assert.equal(currentPins(), atBackup);
  });

  it("a backup asked with PINs when there were none removes the current ones (the restored state is the backup's)", async () => {
    rmSync(join(data(), PINS_FILE));
    const { zip } = await world.download("?includeLockPins=true");
    put(data(), PINS_FILE, pins("bmV3ZXItaGFzaA"));
    const described = await preview(zip);
    assert.deepEqual(described.files.removed, [PINS_FILE]);
    const restored = await world.upload("restore", zip);
    assert.equal(restored.status, 200);
    const { replacedCopy } = (await restored.json()) as { replacedCopy: string };
    assert.ok(!Object.keys(tree(data())).includes(PINS_FILE));
    assert.ok(readFileSync(join(data(), replacedCopy, PINS_FILE), "utf8").includes("bmV3ZXItaGFzaA"), "kept in the copy");
  });

  it("backups of older hubs (no includesLockPins) hold PINs exactly when the file is in them", async () => {
    const bridges = { name: "bridges.json", data: bridgesFile(storedBridge("b1", 5601)) };
    const older = (manifest: Record<string, unknown>) => delete manifest.includesLockPins;
    const withFile = await craft([bridges, { name: PINS_FILE, data: JSON.stringify(pins("b2xk")) }], older);
    assert.equal((await preview(withFile)).includeLockPins, true);
    const withoutFile = await craft([bridges], older);
    assert.equal((await preview(withoutFile)).includeLockPins, false);
    const lying = await craft([bridges, { name: PINS_FILE, data: JSON.stringify(pins("b2xk")) }], (manifest) => {
      manifest.includesLockPins = false;
    });
    const before = tree(data());
    const response = await world.upload("restore", lying);
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { error: string }).error, /lock PINs in a backup that declares none/);
    assert.deepEqual(tree(data()), before);
  });
});
