import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { png } from "./support/images.ts";
import { queryPortalDb, storedAssetNames } from "./support/portal-db.ts";
import { removeDataDir, startTestPortal, type TestPortal } from "./support/portal-harness.ts";

/**
 * Issue 24: asset bytes moved from `<data dir>/branding-assets/` into the database. A portal updated over a data dir
 * of an older one moves the files in at start and serves the same images.
 */
describe("branding asset files of an older portal", () => {
  let portal: TestPortal | undefined;
  after(async () => {
    await portal?.stop();
    if (portal) removeDataDir(portal.dataDir);
  });

  it("are moved into the database at start, served as before, and removed from the data dir", async () => {
    let first: TestPortal | undefined = await startTestPortal();
    const dataDir = first.dataDir;
    const admin = await first.admin();
    const profile = (await admin.post("/api/admin/branding", { name: "Old" })).body.profile;
    const form = new FormData();
    form.set("purpose", "logo");
    form.set("file", new Blob([new Uint8Array(png())], { type: "image/png" }), "logo.png");
    const uploaded = await admin.upload(`/api/admin/branding/${profile.id}/assets`, form);
    assert.equal(uploaded.status, 201, uploaded.text);
    await first.stop();
    first = undefined;

    // What an older portal left: the record, and the bytes as a file under the generated name.
    const [name] = await storedAssetNames(dataDir);
    assert.ok(name);
    await queryPortalDb(dataDir, "DELETE FROM branding_asset_content");
    mkdirSync(join(dataDir, "branding-assets"), { recursive: true });
    const file = join(dataDir, "branding-assets", name);
    writeFileSync(file, png());

    portal = await startTestPortal({ dataDir });
    assert.deepEqual(await storedAssetNames(dataDir), [name], "moved in at start");
    assert.equal(existsSync(file), false, "and the file removed");
    const served = await fetch(`${portal.url}${uploaded.body.asset.url}`);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png());
    assert.ok(portal.logs().some((line) => line.includes("branding asset files moved into the database")));
  });
});
