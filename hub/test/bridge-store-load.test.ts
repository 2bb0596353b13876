import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createTestHub } from "./support/test-context.ts";

describe("bridges stored on disk and the API right after start", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hub-store-load-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const create = (hub: Awaited<ReturnType<typeof createTestHub>>, name: string, port: number) =>
    hub.app.request("/api/matter/bridges", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, port, autoStart: false, filter: { include: [], exclude: [] } }),
    });

  it("lists the stored bridges at once and keeps a bridge created the moment the hub starts", async () => {
    const first = await createTestHub({ dataDir });
    assert.equal((await create(first, "Stored", 45001)).status, 201);
    await first.stop({ keepData: true });

    const second = await createTestHub({ dataDir, start: true });
    try {
      const listed = (await (await second.app.request("/api/matter/bridges")).json()) as { name: string }[];
      assert.deepEqual(
        listed.map((b) => b.name),
        ["Stored"],
        "the stored bridge is there before anything else happens",
      );
      const created = await create(second, "Created at start", 45002);
      assert.equal(created.status, 201);
      const { id } = (await created.json()) as { id: string };
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await second.app.request(`/api/matter/bridges/${id}`)).status, 200);
      const names = ((await (await second.app.request("/api/matter/bridges")).json()) as { name: string }[]).map((b) => b.name);
      assert.deepEqual(names.sort(), ["Created at start", "Stored"]);
    } finally {
      await second.stop({ keepData: true });
    }
  });
});
