import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../lib/config-env.ts";
import { loadPortalConfig } from "./config.ts";

const load = (env: Record<string, string>) => loadPortalConfig({ HA_URL: "http://ha.invalid:8123", ...env }, "/repo");

describe("portal configuration: outbound rules", () => {
  it("is empty by default (the built-in link-local and metadata refusal needs no variable)", () => {
    assert.deepEqual(load({}).outbound, { allow: [], deny: [] });
  });

  it("reads PORTAL_OUTBOUND_ALLOW and PORTAL_OUTBOUND_DENY as comma-separated entries", () => {
    const config = load({
      PORTAL_OUTBOUND_ALLOW: " 10.0.0.0/8, synapse.lan ,,*.example.org",
      PORTAL_OUTBOUND_DENY: "fd00::/8,10.6.6.6",
    });
    assert.deepEqual(config.outbound, { allow: ["10.0.0.0/8", "synapse.lan", "*.example.org"], deny: ["fd00::/8", "10.6.6.6"] });
  });

  it("refuses a malformed entry with one readable line", () => {
    for (const [name, value] of [
      ["PORTAL_OUTBOUND_ALLOW", "10.0.0.0/33"],
      ["PORTAL_OUTBOUND_DENY", "http://169.254.169.254"],
    ] as const) {
      assert.throws(
        () => load({ [name]: value }),
        (error: unknown) =>
          error instanceof ConfigError && error.message.includes(`${name} must be a comma-separated list of IP addresses, CIDR`),
      );
    }
  });
});

describe("portal configuration: the log", () => {
  it("writes readable lines unless PORTAL_LOG_FORMAT=json", () => {
    assert.equal(load({}).logFormat, "pretty");
    assert.equal(load({ PORTAL_LOG_FORMAT: "json" }).logFormat, "json");
    assert.throws(() => load({ PORTAL_LOG_FORMAT: "text" }), /PORTAL_LOG_FORMAT.*must be one of pretty, json/);
  });
});

describe("portal configuration: the metrics token", () => {
  it("is off by default, and refuses a short or spaced token with one line", () => {
    assert.equal(load({}).metricsToken, undefined);
    assert.equal(load({ PORTAL_METRICS_TOKEN: " 0123456789abcdef01234567 " }).metricsToken, "0123456789abcdef01234567");
    for (const bad of ["short", "0123456789abcdef 01234567"]) {
      assert.throws(() => load({ PORTAL_METRICS_TOKEN: bad }), /PORTAL_METRICS_TOKEN must have at least 24 characters/);
    }
  });
});

describe("portal configuration: the database", () => {
  it("is SQLite in the data dir unless PORTAL_DATABASE_URL names PostgreSQL; migrations run at start unless turned off", () => {
    const sqlite = load({ PORTAL_DATA_DIR: "/data/portal" });
    assert.deepEqual(sqlite.database, { kind: "sqlite", path: "/data/portal/portal.sqlite" });
    assert.equal(sqlite.migrateAtStart, true);
    assert.equal(load({ PORTAL_DATABASE_URL: " " }).database.kind, "sqlite", "empty means unset");
    const postgres = load({
      PORTAL_DATABASE_URL: "postgresql://portal:pa55word@db.lan:5432/portal?sslmode=require",
      PORTAL_MIGRATE: "off",
    });
    assert.equal(postgres.migrateAtStart, false);
    assert.equal(postgres.database.kind, "postgres");
    assert.equal(
      postgres.database.kind === "postgres" && postgres.database.url,
      "postgresql://portal:pa55word@db.lan:5432/portal?sslmode=require",
    );
    assert.equal(
      postgres.database.kind === "postgres" && postgres.database.redacted,
      "postgresql://portal:***@db.lan:5432/portal?sslmode=require",
    );
    assert.equal(JSON.stringify(postgres).includes("pa55word"), false, "the configuration serialises without the password");
  });

  it("refuses a URL that is not postgres:// without repeating it, and an unknown PORTAL_MIGRATE", () => {
    for (const url of ["mysql://root:hunter22@db/portal", "postgres//root:hunter22@db", "/var/lib/portal.sqlite"]) {
      assert.throws(
        () => load({ PORTAL_DATABASE_URL: url }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.includes("PORTAL_DATABASE_URL must be a postgres:// URL") &&
          !error.message.includes("hunter22") &&
          !error.message.includes(url),
      );
    }
    assert.throws(() => load({ PORTAL_MIGRATE: "later" }), /PORTAL_MIGRATE must be on or off/);
  });
});
