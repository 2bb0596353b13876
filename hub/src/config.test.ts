import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadHubConfig } from "./config.ts";

const load = (env: Record<string, string>) => loadHubConfig({ HUB_DATA_DIR: "/tmp/hub-config-test", ...env }, "/repo");

describe("hub configuration: the HTTP edge", () => {
  it("reads HUB_ALLOWED_HOSTS as lower-case names, `.suffix` entries and `*`, and refuses anything else", () => {
    assert.deepEqual(load({}).http.allowedHosts, []);
    assert.deepEqual(load({ HUB_ALLOWED_HOSTS: " Hub.Example.com, .home.example.org ,*" }).http.allowedHosts, [
      "hub.example.com",
      ".home.example.org",
      "*",
    ]);
    for (const bad of ["http://hub.example.com", "hub.example.com:8482", "hub_example", "a..b", "*.example.com"]) {
      assert.throws(
        () => load({ HUB_ALLOWED_HOSTS: bad }),
        /HUB_ALLOWED_HOSTS\S* must be a comma-separated list of host names/,
        bad,
      );
    }
  });
});
