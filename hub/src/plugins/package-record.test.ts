import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePackageSpec } from "./package-name.ts";
import { checkPackageFile, checkPackageRecord } from "./package-record.ts";

const record = (name: string, source: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  version: "1.0.0",
  description: "",
  source,
  installedAt: "2025-01-01T00:00:00.000Z",
  hubPluginApiVersion: 1,
  ...extra,
});

const reasonOf = (name: string, raw: unknown, reserved: string[] = []) => {
  const result = checkPackageRecord(name, raw, reserved);
  return result.ok ? undefined : result.reason;
};

describe("package records (install API, restore and load share this check)", () => {
  it("accepts what the install API records", () => {
    for (const raw of [
      record("hub-plugin-x", { type: "registry", spec: "hub-plugin-x" }),
      record("@acme/hub-plugin", { type: "registry", spec: "@acme/hub-plugin@^1.2.0" }),
      record("hub-plugin-x", { type: "registry", spec: "hub-plugin-x@latest" }),
      record("hub-plugin-x", { type: "upload", file: "hub-plugin-x-1.0.0.tgz" }),
      record("hub-plugin-x", { type: "local", path: "/srv/dev/hub-plugin-x" }),
    ]) {
      assert.equal(reasonOf(raw.name, raw), undefined, JSON.stringify(raw));
    }
  });

  it("refuses names that are paths, not npm's, or a built-in's", () => {
    const local = { type: "local", path: "/tmp/x" };
    assert.match(reasonOf("x/../../../../tmp/link", record("x/../../../../tmp/link", local)) ?? "", /not a valid npm/);
    assert.match(reasonOf("@a/../../b", record("@a/../../b", local)) ?? "", /not a valid npm/);
    assert.match(reasonOf("..", record("..", local)) ?? "", /not a valid npm/);
    assert.match(reasonOf("Upper", record("Upper", local)) ?? "", /not a valid npm/);
    assert.match(reasonOf("node_modules", record("node_modules", local)) ?? "", /not a valid npm/);
    assert.match(reasonOf("a".repeat(215), record("a".repeat(215), local)) ?? "", /at most 214/);
    assert.match(reasonOf("security", record("security", local), ["security"]) ?? "", /built-in/);
    assert.match(reasonOf("good", record("other", local)) ?? "", /keyed "good" but names "other"/);
  });

  it("refuses registry specs the install API would refuse: options, files, URLs, git, another package", () => {
    for (const spec of [
      "--registry=http://evil.example/ file:/etc",
      "-g",
      "file:/etc",
      "x@file:/etc",
      "x@http://evil.example/x.tgz",
      "git+https://example.com/x.git",
      "x@-1",
      " x",
      "x@1.0.0 --registry=http://evil",
    ]) {
      assert.match(reasonOf("x", record("x", { type: "registry", spec })) ?? "", /spec/, spec);
    }
    assert.match(reasonOf("x", record("x", { type: "registry", spec: "y@1" })) ?? "", /installs y, not x/);
  });

  it("refuses upload files with a path and local links that are not absolute", () => {
    for (const file of ["../../etc/x.tgz", "/etc/x.tgz", ".hidden.tgz", "x.tar", "sub/x.tgz"]) {
      assert.match(reasonOf("x", record("x", { type: "upload", file })) ?? "", /file/, file);
    }
    assert.match(reasonOf("x", record("x", { type: "local", path: "relative/dir" })) ?? "", /absolute/);
    assert.match(reasonOf("x", record("x", { type: "other" })) ?? "", /type/);
    assert.match(reasonOf("x", record("x", { type: "local", path: "/a" }, { hubPluginApiVersion: "1" })) ?? "", /hubPlugin/);
  });

  it("splits a file into usable and refused records, never throwing on hostile content", () => {
    const check = checkPackageFile(
      JSON.parse(
        '{"version":1,"packages":{"ok":{"name":"ok","version":"1","description":"","source":{"type":"registry","spec":"ok"},"installedAt":"","hubPluginApiVersion":null},"__proto__":{"name":"__proto__"},"bad":null}}',
      ),
      [],
    );
    assert.deepEqual(
      check.records.map((r) => r.name),
      ["ok"],
    );
    assert.deepEqual(check.refused.map((r) => r.name).sort(), ["__proto__", "bad"]);
    assert.equal(checkPackageFile({ version: 1, packages: [] }, []).problem, "packages must be an object of records");
    assert.deepEqual(checkPackageFile(undefined, []), { records: [], refused: [] });
  });

  it("parses specs exactly like the install API", () => {
    assert.deepEqual(parsePackageSpec("@acme/x@~1.2"), { name: "@acme/x", range: "~1.2" });
    assert.deepEqual(parsePackageSpec(" x "), { name: "x", range: undefined });
    assert.ok("problem" in parsePackageSpec("x@"));
    assert.ok("problem" in parsePackageSpec("@acme"));
  });
});
