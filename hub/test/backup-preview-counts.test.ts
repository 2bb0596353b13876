import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import type { RestorePreview } from "../src/backup/restore-preview.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

// What the restore preview says it would do (issue 21): bridge counts that match the bridges it lists, and a plain
// sentence for a file that is not a whole ZIP. Over HTTP, against the hub's own app.

describe("restore preview: counts and broken files (HTTP)", { timeout: 60_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;

  const call = async <T>(method: string, path: string, body?: unknown) => {
    const response = await hub.app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const preview = async (zip: Uint8Array<ArrayBuffer>) => {
    const form = new FormData();
    form.set("file", new File([zip], "backup.zip", { type: "application/zip" }));
    const response = await hub.app.request("/api/backup/restore/preview", { method: "POST", body: form });
    return { status: response.status, body: (await response.json()) as RestorePreview & { error?: string } };
  };
  const create = async (name: string, domain: string) => {
    const port = await freeUdpPort();
    const created = await call<{ id: string }>("POST", "/api/matter/bridges", {
      name,
      port,
      filter: { include: [{ type: "domain", value: domain }] },
      autoStart: false,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id;
  };

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome(), motionMs: 0 });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    await hub.homeAssistant.whenLoaded();
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("counts bridges, not files: one replaced, one added, one removed", async () => {
    const kept = await create("Kept", "light");
    const deleted = await create("Deleted later", "switch");
    const download = await hub.app.request("/api/backup/download");
    assert.equal(download.status, 200);
    const zip = new Uint8Array(await download.arrayBuffer());
    assert.equal((await call("DELETE", `/api/matter/bridges/${deleted}`)).status, 204);
    const added = await create("Made after the backup", "cover");

    const { status, body } = await preview(zip);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(
      body.bridges.map(({ id, change }) => ({ id, change })),
      [
        { id: kept, change: "replaced" },
        { id: deleted, change: "added" },
      ],
    );
    assert.deepEqual(
      body.removedBridges.map((bridge) => bridge.id),
      [added],
    );
    assert.deepEqual(body.bridgeChanges, { added: 1, replaced: 1, removed: 1 });
    // The files are another matter: both bridges of the backup live in the one bridges.json.
    assert.ok(body.files.replaced.includes("bridges.json"));
  });

  it("a truncated download and a file that is no ZIP get a plain sentence, not the ZIP library's words", async () => {
    const download = await hub.app.request("/api/backup/download");
    const zip = new Uint8Array(await download.arrayBuffer());
    for (const broken of [zip.slice(0, zip.length - 30), new TextEncoder().encode("PK\u0003\u0004 a holiday photo")]) {
      const { status, body } = await preview(broken);
      assert.equal(status, 400);
      assert.equal(
        body.error,
        "Invalid backup: this file is not a complete ZIP archive. It may have been cut short (an interrupted download or " +
          "copy) or not be a backup at all: download the backup again and choose that file.",
      );
    }
  });
});
