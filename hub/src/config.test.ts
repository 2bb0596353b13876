import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../lib/config-env.ts";
import { loadHubConfig } from "./config.ts";

const load = (env: Record<string, string>) => loadHubConfig({ HUB_DATA_DIR: "/tmp/hub-config-test", ...env }, "/repo");

describe("hub configuration: the HTTP edge", () => {
  it("reads HUB_LAN_PORT (unset by default) and refuses it equal to HUB_PORT or out of range", () => {
    assert.equal(load({}).http.lanPort, undefined);
    assert.equal(load({ HUB_LAN_PORT: "" }).http.lanPort, undefined);
    assert.equal(load({ HUB_LAN_PORT: " 8484 " }).http.lanPort, 8484);
    assert.throws(() => load({ HUB_PORT: "8484", HUB_LAN_PORT: "8484" }), /HUB_LAN_PORT must differ from HUB_PORT/);
    for (const bad of ["0", "70000", "lan"]) {
      assert.throws(
        () => load({ HUB_LAN_PORT: bad }),
        (error: Error) => error instanceof ConfigError && /HUB_LAN_PORT/.test(error.message),
      );
    }
  });

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

describe("hub configuration: the log", () => {
  it("writes readable lines unless HUB_LOG_FORMAT=json, and refuses other formats with one line", () => {
    assert.equal(load({}).logFormat, "pretty");
    assert.equal(load({ HUB_LOG_FORMAT: "" }).logFormat, "pretty");
    assert.equal(load({ HUB_LOG_FORMAT: " JSON " }).logFormat, "json");
    assert.equal(load({ HUB_LOG_FORMAT: "pretty" }).logFormat, "pretty");
    assert.throws(
      () => load({ HUB_LOG_FORMAT: "yaml" }),
      (error: Error) => error instanceof ConfigError && /HUB_LOG_FORMAT.*must be one of pretty, json/.test(error.message),
    );
  });
});
