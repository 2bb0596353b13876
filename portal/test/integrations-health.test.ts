import assert from "node:assert/strict";
import { appendFileSync, chmodSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse, stringify } from "yaml";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  NO_DOCKER,
  startPortalWithHomeserver,
  startSimulator,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

interface Installed {
  id: string;
  filesDir: string;
}

/** The failure paths of an integration's health check, each made real: files, homeserver, appservice identity. */
describe("integration health check failures", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({
      homeserver: { serverName: "health.test" },
      portal: { capabilities: { ...NO_DOCKER } },
      server: false,
    }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  /** Installs `catalogId` on a new server of `homeserver` (so every test has its own installation). */
  async function install(catalogId: string, homeserver = hs): Promise<Installed> {
    const server = await addServer(admin, homeserver);
    const reply = await admin.post(`/api/admin/integrations?serverId=${server.id}`, { catalogId });
    assert.equal(reply.status, 201, reply.text);
    return reply.body.integration;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the health record is read field by field
  async function health(integration: Installed): Promise<any> {
    const reply = await admin.patch(`/api/admin/integrations/${integration.id}`, { action: "health_check" });
    assert.equal(reply.status, 200, reply.text);
    return reply.body.health;
  }
  const registrationText = (integration: Installed) => readFileSync(join(integration.filesDir, "registration.yaml"), "utf8");
  /**
   * A healthy start: heisenbridge needs no admin-provided secret, so only its registration must be loaded. Its
   * appservice id is always `heisenbridge`, so the previous test's copy is unloaded first.
   */
  async function healthyHeisenbridge(homeserver = hs): Promise<Installed> {
    const integration = await install("heisenbridge", homeserver);
    homeserver.removeAppservice("heisenbridge");
    homeserver.registerAppservice(registrationText(integration));
    const first = await health(integration);
    assert.equal(first.healthy, true, JSON.stringify(first.errors));
    return integration;
  }

  it("reports a generated file edited on disk as modified, until the portal writes it again", async () => {
    const integration = await install("mautrix-telegram");
    hs.registerAppservice(registrationText(integration));
    appendFileSync(join(integration.filesDir, "config.yaml"), "\n# edited by hand\nlogging: { min_level: debug }\n");
    const changed = await health(integration);
    assert.deepEqual(changed.files.modified, ["config.yaml"]);
    assert.deepEqual([changed.files.upToDate, changed.files.present, changed.files.writable], [false, true, true]);
    assert.equal(changed.healthy, false);
    assert.ok(
      changed.errors.some((error: string) => /changed outside the portal: config\.yaml/.test(error)),
      JSON.stringify(changed.errors),
    );
    const detail = (await admin.get(`/api/admin/integrations/${integration.id}`)).body.integration;
    assert.equal(detail.healthy, false, "the last health check is kept on the record");

    // A configuration update regenerates the files: the hand edit is replaced and the check is clean again.
    assert.equal((await admin.put(`/api/admin/integrations/${integration.id}`, { config: { port: 29401 } })).status, 200);
    const regenerated = await health(integration);
    assert.deepEqual([regenerated.files.modified, regenerated.files.upToDate], [[], true]);
    assert.equal(readFileSync(join(integration.filesDir, "config.yaml"), "utf8").includes("edited by hand"), false);
  });

  it("reports an unreachable homeserver without claiming the appservice is unregistered", async () => {
    const doomed = await startSimulator({ serverName: "gone.test" });
    const integration = await healthyHeisenbridge(doomed);
    await doomed.close();
    const report = await health(integration);
    assert.equal(report.homeserverReachable, false);
    assert.equal(report.healthy, false);
    assert.equal(report.appservice.registered, null, "unknown, not false: the homeserver could not be asked");
    assert.match(report.appservice.reason, /could not be asked/);
    assert.ok(
      report.errors.some((error: string) => /cannot be reached/.test(error)),
      JSON.stringify(report.errors),
    );
    assert.deepEqual([report.files.present, report.files.writable], [true, true], "the files are still fine");
  });

  it("reports an as_token that the homeserver maps to another user", async () => {
    const integration = await install("heisenbridge");
    // The homeserver loaded a registration with this as_token but another sender (a stale or hand-edited copy).
    const registration = parse(registrationText(integration));
    hs.registerAppservice(stringify({ ...registration, sender_localpart: "impostor" }));
    const report = await health(integration);
    assert.equal(report.homeserverReachable, true);
    assert.deepEqual(report.appservice, {
      id: registration.id,
      expectedUserId: `@${registration.sender_localpart}:health.test`,
      registered: false,
      userId: "@impostor:health.test",
      reason: "the as_token belongs to @impostor:health.test",
    });
    assert.equal(report.healthy, false);
    assert.ok(report.errors.some((error: string) => error.includes("@impostor:health.test")));
  });

  it("reports the files as not writable when the folder is read-only (needs a non-root user)", async (t) => {
    const integration = await healthyHeisenbridge();
    chmodSync(integration.filesDir, 0o500);
    try {
      const probe = join(integration.filesDir, ".root-probe");
      try {
        writeFileSync(probe, "");
        unlinkSync(probe);
        t.skip("running as root: the mode does not stop writes (the next test replaces the folder instead)");
        return;
      } catch {
        // The folder really is read-only for this user: the case to test.
      }
      const report = await health(integration);
      assert.deepEqual([report.files.writable, report.files.notWritable], [false, ["."]]);
      assert.equal(report.files.present, true);
      assert.equal(report.healthy, false);
      assert.ok(report.errors.some((error: string) => /not writable/.test(error)));
    } finally {
      chmodSync(integration.filesDir, 0o700);
    }
    assert.equal((await health(integration)).files.writable, true, "writable again once the mode is restored");
  });

  it("reports the files as missing and not writable when a file took the folder's place", async () => {
    const integration = await healthyHeisenbridge();
    const aside = `${integration.filesDir}.aside`;
    renameSync(integration.filesDir, aside);
    writeFileSync(integration.filesDir, "not a folder");
    try {
      const report = await health(integration);
      assert.equal(report.files.writable, false);
      assert.deepEqual(report.files.notWritable, ["."]);
      assert.equal(report.files.present, false);
      assert.deepEqual(report.files.missing.sort(), ["INSTALL.md", "registration.yaml"]);
      assert.equal(report.healthy, false);
      assert.ok(
        report.errors.some((error: string) => /not writable/.test(error)),
        JSON.stringify(report.errors),
      );
    } finally {
      rmSync(integration.filesDir, { force: true });
      renameSync(aside, integration.filesDir);
    }
    const restored = await health(integration);
    assert.deepEqual([restored.files.writable, restored.files.present, restored.healthy], [true, true, true]);
  });
});
