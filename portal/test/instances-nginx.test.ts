import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { until } from "../../lib/testing/polling.ts";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { nginxMissing, type RunningNginx, startNginx } from "./support/nginx.ts";
import { PortalClient, type Reply } from "./support/portal-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, addServer, nextIp, startSimulator } from "./support/portal-harness.ts";
import {
  type PortalProcess,
  type SharedDatabase,
  sharedDatabase,
  sharedDatabaseKind,
  startPortalProcess,
} from "./support/portal-processes.ts";

const CREATE_TOKEN = "/_synapse/admin/v1/registration_tokens/new";
const skip = nginxMissing();
// Said out loud, not only in the reporter's skip line: `npm test` on a machine without nginx must show what it left out.
if (skip) console.log(`SKIPPED portal/test/instances-nginx.test.ts: ${skip}`);

/**
 * Issue 24: two portal instances on one database behind nginx (docs/scale-out.md). One is killed (SIGKILL) while
 * requests are inside it: every write that was answered stays, and nginx goes on serving from the other.
 */
describe(`two portal instances behind nginx (${sharedDatabaseKind()})`, { skip }, () => {
  let database: SharedDatabase;
  let a: PortalProcess;
  let b: PortalProcess;
  let proxy: RunningNginx;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let tokens: string;

  before(async () => {
    database = await sharedDatabase();
    hs = await startSimulator({ serverName: "proxied.test" });
    a = await startPortalProcess({ name: "A", database, index: 0 });
    b = await startPortalProcess({ name: "B", database, index: 1 });
    proxy = await startNginx([a.port, b.port]);
    admin = new PortalClient(proxy.url, { ip: nextIp() });
    await admin.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    tokens = `/api/admin/tokens?serverId=${(await addServer(admin, hs)).id}`;
  });
  after(async () => {
    await proxy?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await hs?.close();
    for (const dir of new Set([a?.dataDir, b?.dataDir])) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("loses no answered write when an instance is killed mid-request, and keeps serving from the other", async () => {
    const answered: string[] = [];
    const create = async (token: string): Promise<Reply> => {
      const reply = await admin.post(tokens, { token, label: `label of ${token}` });
      if (reply.status === 201) answered.push(token);
      return reply;
    };
    // Writes through both instances (round robin) before anything happens.
    for (let i = 0; i < 10; i++) assert.equal((await create(`before-${i}`)).status, 201);

    // Six writes inside the instances at once, held where they call the homeserver; then A dies under its share.
    const held = hs.holdResponses((r) => r.method === "POST" && r.path === CREATE_TOKEN);
    const inFlight = Array.from({ length: 6 }, (_, i) => create(`during-${i}`));
    try {
      await until("six writes are inside the two instances", () => held.held() >= 6, 20_000);
      assert.equal(await a.kill(), 137, "A died from SIGKILL");
    } finally {
      held.release();
    }
    const during = (await Promise.all(inFlight)).map((reply) => reply.status);
    assert.ok(during.includes(502), `a request was inside A when it died: ${during}`);
    assert.ok(during.includes(201), `B answered its share: ${during}`);
    assert.ok(
      during.every((status) => status === 201 || status === 502),
      String(during),
    );

    // nginx goes on with B alone: writes, reads, the same session, a sign-up.
    for (let i = 0; i < 10; i++) assert.equal((await create(`after-${i}`)).status, 201, `after-${i}`);
    const listed = new Map(
      ((await admin.get(tokens)).body.tokens as { token: string; label: string }[]).map((t) => [t.token, t.label]),
    );
    for (const token of answered) assert.equal(listed.get(token), `label of ${token}`, `${token} was answered 201`);
    const audited = (await admin.get("/api/admin/audit?action=token.created&limit=200")).body.logs as { target: string }[];
    for (const token of answered)
      assert.ok(
        audited.some((entry) => entry.target === token),
        `${token} audited`,
      );

    const password = "correct horse battery";
    const signUp = await new PortalClient(proxy.url, { ip: nextIp() }).post("/api/register", {
      username: "after-the-crash",
      password,
      confirmPassword: password,
      token: "after-0",
    });
    assert.equal(signUp.status, 200, signUp.text);
    assert.equal((await admin.get("/api/auth/session")).body.authenticated, true, "the session lives in the database");
  });
});
