import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { EntityRegistryEntry } from "../home-assistant/types.ts";
import { EndpointIdentities, identityKey } from "./endpoint-identities.ts";

const dir = mkdtempSync(join(tmpdir(), "identities-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const registry = (entity_id: string, unique_id: string | null, id = `reg-${entity_id}`, platform = "hue") =>
  ({ entity_id, unique_id, id, platform }) as EntityRegistryEntry;

describe("endpoint identities", () => {
  it("keys on the integration's unique id, then the registry id, then the entity id", () => {
    assert.equal(identityKey({ entityId: "light.a", registry: registry("light.a", "abc") }), "du:light:hue:abc");
    assert.equal(identityKey({ entityId: "light.a", registry: registry("light.a", null) }), "r:reg-light.a");
    assert.equal(identityKey({ entityId: "script.x", registry: undefined }), "e:script.x");
  });

  it("keeps the endpoint id across renames, disappearance and a reload from disk", async () => {
    const ids = new EndpointIdentities(dir, "b1");
    await ids.load();
    const first = ids.endpointIdFor({ entityId: "light.kitchen", registry: registry("light.kitchen", "hue-1") });
    const other = ids.endpointIdFor({ entityId: "light.desk", registry: registry("light.desk", "hue-2") });
    assert.notEqual(first, other);
    const renamed = ids.endpointIdFor({
      entityId: "light.kitchen_ceiling",
      registry: registry("light.kitchen_ceiling", "hue-1", "new-reg"),
    });
    assert.equal(renamed, first);
    await ids.flush();
    const reloaded = new EndpointIdentities(dir, "b1");
    await reloaded.load();
    assert.equal(reloaded.endpointIdFor({ entityId: "light.desk", registry: registry("light.desk", "hue-2") }), other);
    const fresh = reloaded.endpointIdFor({ entityId: "light.new", registry: registry("light.new", "hue-3") });
    assert.ok(![first, other].includes(fresh), "ids are never reused");
  });

  it("gives entities of two domains with one unique id (HA's demo button.push and event.push) their own endpoints", async () => {
    const ids = new EndpointIdentities(dir, "b3");
    await ids.load();
    const button = ids.endpointIdFor({ entityId: "button.push", registry: registry("button.push", "push", "r1", "demo") });
    const event = ids.endpointIdFor({ entityId: "event.push", registry: registry("event.push", "push", "r2", "demo") });
    assert.notEqual(button, event);
    assert.equal(ids.endpointIdFor({ entityId: "button.push", registry: registry("button.push", "push", "r1", "demo") }), button);
  });

  it("keeps the endpoints saved under the old key (without the domain), for the entity of the domain that held it", async () => {
    const legacy = {
      version: 1,
      next: 3,
      endpoints: {
        "u:hue:abc": { endpointId: "e1", entityId: "light.desk" },
        "u:demo:push": { endpointId: "e2", entityId: "event.push" },
      },
    };
    mkdirSync(join(dir, "identities"), { recursive: true });
    writeFileSync(join(dir, "identities", "b4.json"), JSON.stringify(legacy));
    const ids = new EndpointIdentities(dir, "b4");
    await ids.load();
    assert.equal(ids.endpointIdFor({ entityId: "light.desk", registry: registry("light.desk", "abc") }), "e1");
    const button = ids.endpointIdFor({ entityId: "button.push", registry: registry("button.push", "push", "r1", "demo") });
    assert.equal(ids.endpointIdFor({ entityId: "event.push", registry: registry("event.push", "push", "r2", "demo") }), "e2");
    assert.ok(!["e1", "e2"].includes(button), "the button, which never owned e2, gets an endpoint of its own");
    await ids.flush();
    const saved = JSON.parse(readFileSync(ids.path, "utf8")) as { endpoints: Record<string, { endpointId: string }> };
    assert.deepEqual(Object.keys(saved.endpoints).sort(), ["du:button:demo:push", "du:event:demo:push", "du:light:hue:abc"]);
  });

  it("saves any number of new identities in one write, and only when asked", async () => {
    const ids = new EndpointIdentities(dir, "b2");
    await ids.load();
    for (let i = 0; i < 500; i++) ids.endpointIdFor({ entityId: `sensor.s${i}`, registry: registry(`sensor.s${i}`, `u${i}`) });
    assert.equal(existsSync(ids.path), false, "nothing written before the flush");
    await ids.flush();
    const written = statSync(ids.path);
    await ids.flush(); // nothing new: the file is not written again (an atomic write would give it a new inode)
    assert.equal(statSync(ids.path).ino, written.ino);
    const saved = JSON.parse(readFileSync(ids.path, "utf8")) as { next: number; endpoints: Record<string, unknown> };
    assert.equal(Object.keys(saved.endpoints).length, 500);
    assert.equal(saved.next, 501);
    ids.endpointIdFor({ entityId: "sensor.late", registry: registry("sensor.late", "late") });
    await ids.flush();
    assert.notEqual(statSync(ids.path).ino, written.ino, "a new identity is written");
  });
});
