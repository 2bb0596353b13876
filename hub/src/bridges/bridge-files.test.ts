import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BRIDGES_FILE, bridgeFiles, bridgeIdOfFile, controllersFileName, IDENTITIES_DIR, MATTER_DIR } from "./bridge-files.ts";

// Stored hubs and backups use these exact names: a change here is a data migration, not a rename.
describe("bridge files", () => {
  it("names what a bridge owns under the data dir", () => {
    assert.equal(BRIDGES_FILE, "bridges.json");
    assert.deepEqual(bridgeFiles("b1"), {
      matterStorage: "matter/b1",
      controllers: "matter/b1.controllers.json",
      identities: "identities/b1.json",
    });
    assert.equal(controllersFileName("b1"), "b1.controllers.json");
  });

  it("reads the bridge id back from a file name, and nothing from other names", () => {
    assert.equal(bridgeIdOfFile(MATTER_DIR, "b1.controllers.json"), "b1");
    assert.equal(bridgeIdOfFile(IDENTITIES_DIR, "b1.json"), "b1");
    assert.equal(bridgeIdOfFile(MATTER_DIR, "b1.json"), undefined);
    assert.equal(bridgeIdOfFile(IDENTITIES_DIR, "b1.txt"), undefined);
  });
});
