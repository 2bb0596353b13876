import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEVICE_TYPE_KEYS } from "../matter/model/contract.ts";
import { CONTROLLER_IDS, CONTROLLER_LIMITS, type LimitSource, parseControllerLimits } from "./controller-limits.ts";

const raw = JSON.parse(readFileSync(new URL("./controller-limits.data.json", import.meta.url), "utf8"));
/** Device types the table may already name that the hub does not expose yet (so the gap applies the day it does). */
const NOT_YET_EXPOSED = ["water_freeze_detector", "energy_evse"];

function allSources(): { where: string; source: LimitSource }[] {
  return Object.entries(CONTROLLER_LIMITS.controllers).flatMap(([id, entry]) => [
    ...entry.maxDevices.sources.map((source) => ({ where: `${id} maxDevices`, source })),
    ...(entry.port?.sources ?? []).map((source) => ({ where: `${id} port`, source })),
    ...entry.deviceTypes.flatMap((gap) => gap.sources.map((source) => ({ where: `${id} ${gap.keys.join(",")}`, source }))),
    ...entry.notes.flatMap((note) => note.sources.map((source) => ({ where: `${id} note`, source }))),
  ]);
}

describe("controller limits data file", () => {
  it("covers the controllers of issue 20, each with a device limit entry (a number or none known)", () => {
    for (const id of ["apple_home", "google_home", "alexa", "smartthings", "home_assistant"]) {
      assert.ok(CONTROLLER_IDS.includes(id), `${id} is in the table`);
    }
    assert.equal(CONTROLLER_LIMITS.controllers.apple_home?.maxDevices.value, 150);
    assert.equal(CONTROLLER_LIMITS.controllers.alexa?.maxDevices.value, 50);
    assert.equal(CONTROLLER_LIMITS.controllers.alexa?.port?.value, 5540);
  });

  it("gives every limit, gap and note a source with a url or document and a past checked-on date", () => {
    const today = new Date().toISOString().slice(0, 10);
    const sources = allSources();
    assert.ok(sources.length > 20);
    for (const { where, source } of sources) {
      assert.ok(source.url ?? source.document, `${where}: ${source.title} names a url or document`);
      assert.ok(source.checkedOn <= today, `${where}: checked on ${source.checkedOn}, not in the future`);
      assert.ok(!Number.isNaN(Date.parse(source.checkedOn)), `${where}: ${source.checkedOn} is a date`);
    }
  });

  it("names only device type keys the hub knows (or documents as not exposed yet)", () => {
    const known = new Set<string>([...DEVICE_TYPE_KEYS, ...NOT_YET_EXPOSED]);
    for (const [id, entry] of Object.entries(CONTROLLER_LIMITS.controllers)) {
      for (const gap of entry.deviceTypes)
        for (const key of gap.keys) assert.ok(known.has(key), `${id}: ${key} is a device type key`);
    }
  });

  it("refuses a broken correction with the field named", () => {
    const broken = (edit: (table: typeof raw) => void) => {
      const copy = structuredClone(raw);
      edit(copy);
      return () => parseControllerLimits(copy);
    };
    assert.throws(
      broken((t) => {
        t.controllers.alexa.maxDevices.sources = [];
      }),
      /controllers\.alexa\.maxDevices\.sources: every entry needs at least one source/,
    );
    assert.throws(
      broken((t) => {
        t.controllers.alexa.deviceTypes[0].sources[0].checkedOn = "last week";
      }),
      /checkedOn must be a date/,
    );
    assert.throws(
      broken((t) => {
        t.controllers.apple_home.maxDevices.value = null;
      }),
      /a null value goes with basis none_known/,
    );
    assert.throws(
      broken((t) => {
        t.controllers.alexa.deviceTypes[0].effect = "annoying";
      }),
      /controllers\.alexa\.deviceTypes\.0\.effect/,
    );
    assert.throws(
      broken((t) => {
        delete t.controllers.google_home.deviceTypes[0].sources[0].url;
      }),
      /a source needs a url or a document/,
    );
    assert.throws(
      broken((t) => {
        t.controllers["Apple Home"] = t.controllers.apple_home;
      }),
      /controller ids are snake_case/,
    );
  });
});
