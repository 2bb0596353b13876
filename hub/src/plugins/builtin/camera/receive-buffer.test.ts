import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir } from "../../../../../lib/testing/fixtures.ts";
import { checkReceiveBuffer, RECEIVE_BUFFER_BYTES } from "./receive-buffer.ts";

describe("receive buffer check", () => {
  let folder: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  before(async () => {
    folder = await tempDir("rmem");
    dir = folder.path;
  });
  after(() => folder.remove());

  it("asks for 4 MB and names the sysctl when the host caps it lower", async () => {
    const path = join(dir, "low");
    await writeFile(path, "212992\n");
    const report = await checkReceiveBuffer({ rmemMaxPath: path });
    assert.equal(report.requested, RECEIVE_BUFFER_BYTES);
    assert.equal(report.rmemMax, 212992);
    assert.ok(typeof report.granted === "number" && report.granted > 0, "a real socket answered");
    assert.match(report.hint ?? "", /212992 bytes/);
    assert.match(report.hint ?? "", /sysctl -w net\.core\.rmem_max=4194304/);
  });

  it("gives no hint when the host allows 4 MB", async () => {
    const path = join(dir, "high");
    await writeFile(path, "8388608");
    const report = await checkReceiveBuffer({ rmemMaxPath: path });
    assert.equal(report.rmemMax, 8388608);
    assert.equal(report.hint, null);
  });

  it("falls back to what the probe socket was granted when rmem_max cannot be read", async () => {
    const report = await checkReceiveBuffer({ rmemMaxPath: join(dir, "missing") });
    assert.equal(report.rmemMax, null);
    assert.equal(report.hint === null, (report.granted ?? 0) >= RECEIVE_BUFFER_BYTES);
  });
});
