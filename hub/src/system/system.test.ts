import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import type { NetworkInterfaceInfo } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { storageUsage } from "./storage-usage.ts";
import { systemRoutes } from "./system.routes.ts";
import { describeInterfaces, type SystemInfo } from "./system-info.ts";

describe("GET /api/system/info", () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "hub-system-"));
    await mkdir(join(dir, "bridges", "b1"), { recursive: true });
    await writeFile(join(dir, "settings.json"), "x".repeat(1000));
    await writeFile(join(dir, "bridges", "b1", "node.json"), "y".repeat(2500));
    await writeFile(join(dir, "bridges", "empty"), "");
    // A symlink to something big is not followed (or counted as that thing's size).
    await symlink(tmpdir(), join(dir, "link"));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reports host, node, memory, network and storage", async () => {
    const app = new Hono().route("/api/system", systemRoutes({ dataDir: dir, mdnsInterface: undefined }));
    const response = await app.request("/api/system/info");
    assert.equal(response.status, 200);
    const info = (await response.json()) as SystemInfo;
    assert.ok(info.hostname.length > 0);
    assert.equal(info.platform, process.platform);
    assert.equal(info.arch, process.arch);
    assert.ok(info.release.length > 0);
    assert.equal(info.nodeVersion, process.version);
    assert.ok(info.cpus.count > 0);
    assert.ok(info.uptime.system > 0 && info.uptime.process >= 0);
    assert.ok(info.memory.total > 0 && info.memory.free > 0 && info.memory.processRss > 0);
    assert.equal(info.network.mdnsInterface, null);
    assert.equal(info.network.mdnsInterfaceFound, true);
    assert.ok(info.network.interfaces.length > 0);
    const loopback = info.network.interfaces.find((i) => i.internal);
    assert.ok(loopback, "loopback interface present");
    assert.equal(loopback.advertised, false);
    assert.ok(loopback.addresses.every((a) => a.internal && !a.advertised && a.scope === "loopback"));
    for (const address of info.network.interfaces.flatMap((i) => i.addresses)) {
      assert.ok(address.family === "IPv4" || address.family === "IPv6");
      assert.equal(typeof address.internal, "boolean");
    }
    assert.deepEqual(
      { path: info.storage.path, exists: info.storage.exists, used: info.storage.usedBytes, files: info.storage.fileCount },
      { path: dir, exists: true, used: 3500, files: 3 },
    );
    assert.equal(info.storage.directoryCount, 2);
    assert.ok(info.storage.freeBytes > 0 && info.storage.totalBytes >= info.storage.freeBytes);
    assert.ok(!Number.isNaN(Date.parse(info.timestamp)));
  });

  it("reports a missing data folder as empty, with the parent filesystem's space", async () => {
    const usage = await storageUsage(join(dir, "not", "there"));
    assert.equal(usage.exists, false);
    assert.equal(usage.usedBytes, 0);
    assert.ok(usage.totalBytes > 0);
  });

  it("stops a walk at the entry limit and says so", async () => {
    const usage = await storageUsage(dir, 2);
    assert.equal(usage.partial, true);
    assert.ok(usage.fileCount <= 2);
  });
});

describe("advertised addresses", () => {
  const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({
    address,
    netmask: "255.255.255.0",
    family: "IPv4",
    mac: "02:00:00:00:00:01",
    internal,
    cidr: `${address}/24`,
  });
  const v6 = (address: string, scopeid: number): NetworkInterfaceInfo => ({
    address,
    netmask: "ffff:ffff:ffff:ffff::",
    family: "IPv6",
    mac: "02:00:00:00:00:01",
    internal: false,
    cidr: `${address}/64`,
    scopeid,
  });
  const host = { lo: [v4("127.0.0.1", true)], eth0: [v4("192.168.1.20"), v6("fe80::1", 2)], wlan0: [v4("10.0.0.5")] };

  it("announces every non-internal address when no mDNS interface is set", () => {
    const report = describeInterfaces(host, undefined);
    assert.deepEqual(
      report.map((i) => [i.name, i.advertised]),
      [
        ["eth0", true],
        ["lo", false],
        ["wlan0", true],
      ],
    );
    const eth0 = report[0]!;
    assert.deepEqual(
      eth0.addresses.map((a) => [a.address, a.scope, a.scopeId]),
      [
        ["192.168.1.20", "private", undefined],
        ["fe80::1", "link-local", 2],
      ],
    );
  });

  it("announces only on the configured mDNS interface", () => {
    const report = describeInterfaces(host, "eth0");
    assert.deepEqual(
      report.filter((i) => i.advertised).map((i) => i.name),
      ["eth0"],
    );
    assert.ok(report.find((i) => i.name === "eth0")!.addresses.every((a) => a.advertised));
  });
});
