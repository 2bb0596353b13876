import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient, Reply } from "./support/portal-client.ts";
import {
  addServer,
  startPortalWithHomeserver,
  startSimulator,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

const TOKEN_FIELDS = [
  "completed",
  "disabled",
  "expiry_time",
  "label",
  "note",
  "pending",
  "state",
  "token",
  "uses_allowed",
  "valid",
];

describe("registration tokens", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  let path: (suffix?: string) => string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({ homeserver: { serverName: "tokens.test" } }));
    path = (suffix = "") => `/api/admin/tokens${suffix}?serverId=${serverId}`;
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  /** An admin request whose path is sent byte for byte, without the URL normalisation fetch applies. */
  function rawRequest(method: string, rawPath: string, body?: unknown): Promise<Pick<Reply, "status" | "body" | "text">> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { cookie: `portal_session=${admin.cookie}`, origin: portal.url };
    if (payload !== undefined) headers["content-type"] = "application/json";
    return new Promise((resolve, reject) => {
      const req = httpRequest(portal.url, { method, path: rawPath, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || "{}"), text }));
      });
      req.on("error", reject);
      req.end(payload);
    });
  }

  const homeserverToken = (token: string) => hs.tokens().find((t) => t.token === token);
  const lastAudit = async () => (await admin.get(`/api/admin/audit?serverId=${serverId}&limit=1`)).body.logs[0];

  it("creates explicit tokens with limits and metadata on the homeserver and locally (201, token.created)", async () => {
    const expiry = Date.now() + 86_400_000;
    const reply = await admin.post(path(), {
      token: "spring-2026",
      uses_allowed: 3,
      expiry_time: expiry,
      label: "Spring",
      note: "For the club",
    });
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(Object.keys(reply.body.token).sort(), TOKEN_FIELDS);
    assert.deepEqual(reply.body.token, {
      token: "spring-2026",
      uses_allowed: 3,
      pending: 0,
      completed: 0,
      expiry_time: expiry,
      label: "Spring",
      note: "For the club",
      disabled: false,
      valid: true,
      state: "valid",
    });
    assert.deepEqual(homeserverToken("spring-2026"), {
      token: "spring-2026",
      uses_allowed: 3,
      pending: 0,
      completed: 0,
      expiry_time: expiry,
    });
    const audit = await lastAudit();
    assert.equal(audit.action, "token.created");
    assert.equal(audit.target, "spring-2026");
  });

  it("generates tokens of the requested length (8-64, default 16) when none is given", async () => {
    for (const [body, length] of [
      [{}, 16],
      [{ token: "" }, 16],
      [{ length: 8 }, 8],
      [{ length: 64, label: "long" }, 64],
    ] as const) {
      const reply = await admin.post(path(), body);
      assert.equal(reply.status, 201, reply.text);
      assert.match(reply.body.token.token, new RegExp(`^[A-Za-z0-9._~-]{${length}}$`));
      assert.equal(reply.body.token.uses_allowed, null);
      assert.ok(homeserverToken(reply.body.token.token));
    }
  });

  it("refuses bad input with 400 in the error shape, before the homeserver is asked", async () => {
    const before = hs.requests().length;
    const cases: Record<string, unknown>[] = [
      { token: "x".repeat(65) },
      { token: "has space" },
      { token: "new" },
      { length: 7 },
      { length: 65 },
      { uses_allowed: -1 },
      { uses_allowed: 0 },
      { uses_allowed: 2.5 },
      { expiry_time: "tomorrow" },
      { label: "l".repeat(256) },
      { note: "n".repeat(1001) },
      { completed: 1 },
    ];
    for (const body of cases) {
      const reply = await admin.post(path(), body);
      assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 40));
      assert.equal(reply.body.success, false);
      assert.equal(typeof reply.body.error, "string");
    }
    assert.equal(hs.requests().length, before);
    const past = await admin.post(path(), { token: "too-late", expiry_time: Date.now() - 60_000 });
    assert.equal(past.status, 400);
    assert.match(past.body.error, /past/);
    const limits = await admin.post(path(), { token: "x".repeat(64), label: "l".repeat(255), note: "n".repeat(1000) });
    assert.equal(limits.status, 201, limits.text);
    const duplicate = await admin.post(path(), { token: "spring-2026" });
    assert.equal(duplicate.status, 400);
    assert.equal(duplicate.body.errorCode, "M_INVALID_PARAM");
    assert.match(duplicate.body.error, /already exists/);
    assert.equal((await admin.post("/api/admin/tokens", {})).status, 400, "serverId is required");
    assert.equal((await admin.post("/api/admin/tokens?serverId=nope", {})).status, 404);
  });

  it("refuses dot tokens in paths and bodies with 400, making no homeserver call (issue 16 item 6)", async () => {
    const before = hs.requests().length;
    for (const token of ["%2e", "%2E%2e", ".", ".."]) {
      for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
        // Sent as written (fetch would resolve the dots first), as `curl --path-as-is` does. The portal's URL
        // parsing resolves them before routing, so this is another route's 4xx; what matters is that nothing is called.
        const reply = await rawRequest(method, path(`/${token}`), method === "PUT" ? { label: "x" } : undefined);
        assert.ok(reply.status >= 400 && reply.status < 500, `${method} ${token}: ${reply.text}`);
        assert.equal(reply.body.success, false);
      }
    }
    for (const token of [".", ".."]) {
      const created = await admin.post(path(), { token });
      assert.equal(created.status, 400, "Synapse would create it, and it could never be read, changed or deleted");
      assert.match(created.body.error, /"\." or "\.\."/);
    }
    assert.equal(hs.requests().length, before, "nothing reached the homeserver");
  });

  it("lists the homeserver's tokens merged with local label and note, and reads one", async () => {
    await fetch(`${hs.url}/_synapse/admin/v1/registration_tokens/new`, {
      method: "POST",
      headers: { authorization: `Bearer ${hs.adminToken}` },
      body: JSON.stringify({ token: "made-elsewhere", uses_allowed: 0 }),
    });
    const list = await admin.get(path());
    assert.equal(list.status, 200);
    const tokens = list.body.tokens as { token: string; label: string | null; disabled: boolean }[];
    assert.deepEqual(
      tokens.map((t) => t.token),
      hs.tokens().map((t) => t.token),
    );
    assert.equal(tokens.find((t) => t.token === "spring-2026")?.label, "Spring");
    const foreign = tokens.find((t) => t.token === "made-elsewhere");
    assert.equal(foreign?.label, null);
    assert.equal(foreign?.disabled, true, "uses_allowed 0 is treated as disabled, whatever Synapse does with it");

    const one = await admin.get(path("/spring-2026"));
    assert.equal(one.status, 200);
    assert.equal(one.body.token.note, "For the club");
    const missing = await admin.get(path("/no-such-token"));
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "M_NOT_FOUND");
    assert.equal((await admin.get(path("/bad%20token"))).status, 400);
  });

  it("updates homeserver fields and/or metadata (token.updated)", async () => {
    const expiry = Date.now() + 7 * 86_400_000;
    const both = await admin.put(path("/spring-2026"), { uses_allowed: 10, expiry_time: expiry, label: "Spring+" });
    assert.equal(both.status, 200, both.text);
    assert.equal(both.body.token.uses_allowed, 10);
    assert.equal(both.body.token.label, "Spring+");
    assert.equal(homeserverToken("spring-2026")?.expiry_time, expiry);
    const before = hs.requests().filter((r) => r.method === "PUT").length;
    const metadataOnly = await admin.put(path("/spring-2026"), { note: null });
    assert.equal(metadataOnly.body.token.note, null);
    assert.equal(metadataOnly.body.token.uses_allowed, 10);
    assert.equal(hs.requests().filter((r) => r.method === "PUT").length, before, "metadata only: no homeserver PUT");
    const audit = await lastAudit();
    assert.equal(audit.action, "token.updated");
    assert.deepEqual(audit.detail, { fields: ["note"] });
    const unlimited = await admin.put(path("/spring-2026"), { uses_allowed: null, expiry_time: null });
    assert.equal(unlimited.body.token.uses_allowed, null);
    assert.equal(unlimited.body.token.expiry_time, null);
    assert.equal((await admin.put(path("/spring-2026"), {})).status, 400);
    assert.equal((await admin.put(path("/spring-2026"), { uses_allowed: 0 })).status, 400);
    assert.equal((await admin.put(path("/spring-2026"), { expiry_time: Date.now() - 1000 })).status, 400);
    assert.equal((await admin.put(path("/ghost"), { label: "x" })).status, 404);
  });

  it("disables with PATCH: uses_allowed 0 on the homeserver plus the local flag (token.disabled)", async () => {
    await admin.post(path(), { token: "to-disable", uses_allowed: 5, label: "soon off" });
    const reply = await admin.patch(path("/to-disable"));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.token.uses_allowed, 0);
    assert.equal(reply.body.token.disabled, true);
    assert.equal(reply.body.token.valid, false);
    assert.equal(reply.body.token.label, "soon off");
    assert.equal(homeserverToken("to-disable")?.uses_allowed, 0);
    assert.equal((await lastAudit()).action, "token.disabled");

    // Someone raises the limit behind the portal's back: the local flag still keeps it disabled.
    await fetch(`${hs.url}/_synapse/admin/v1/registration_tokens/to-disable`, {
      method: "PUT",
      headers: { authorization: `Bearer ${hs.adminToken}` },
      body: JSON.stringify({ uses_allowed: 5 }),
    });
    assert.equal((await admin.get(path("/to-disable"))).body.token.disabled, true);
    // Giving it a limit through the portal enables it again.
    const again = await admin.put(path("/to-disable"), { uses_allowed: 2 });
    assert.equal(again.body.token.disabled, false);
    assert.equal(again.body.token.valid, true);
    assert.deepEqual((await lastAudit()).detail, { fields: ["uses_allowed"], reenabled: true });
    assert.equal((await admin.patch(path("/ghost"))).status, 404);
  });

  it("deletes on both sides (token.deleted) and cleans metadata of tokens gone from the homeserver", async () => {
    await admin.post(path(), { token: "short-lived", label: "bye" });
    const deleted = await admin.delete(path("/short-lived"));
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { deleted: true });
    assert.equal(homeserverToken("short-lived"), undefined);
    assert.equal((await lastAudit()).action, "token.deleted");
    assert.equal((await admin.delete(path("/short-lived"))).status, 404);

    // Deleted out-of-band, then recreated with the same name: the old label must not come back.
    await admin.post(path(), { token: "orphan", label: "old label" });
    await fetch(`${hs.url}/_synapse/admin/v1/registration_tokens/orphan`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${hs.adminToken}` },
    });
    const list = await admin.get(path());
    assert.equal(
      (list.body.tokens as { token: string }[]).some((t) => t.token === "orphan"),
      false,
    );
    await fetch(`${hs.url}/_synapse/admin/v1/registration_tokens/new`, {
      method: "POST",
      headers: { authorization: `Bearer ${hs.adminToken}` },
      body: JSON.stringify({ token: "orphan" }),
    });
    assert.equal((await admin.get(path("/orphan"))).body.token.label, null);
  });

  it("turns homeserver trouble into clear admin errors", async () => {
    const mas = await startSimulator({ delegatedAuth: true });
    try {
      const masServer = await addServer(admin, mas);
      const reply = await admin.get(`/api/admin/tokens?serverId=${masServer.id}`);
      assert.equal(reply.status, 502);
      assert.equal(reply.body.errorCode, "M_UNRECOGNIZED");
      assert.match(reply.body.error, /MSC3861/);
      await admin.patch(`/api/admin/servers/${masServer.id}`, { action: "rotate_token", adminToken: "bogus" });
      mas.setDelegatedAuth(false);
      const refused = await admin.get(`/api/admin/tokens?serverId=${masServer.id}`);
      assert.equal(refused.status, 502);
      assert.equal(refused.body.errorCode, "M_UNKNOWN_TOKEN");
      assert.match(refused.body.error, /rotate it/);
    } finally {
      await mas.close();
    }
    const gone = await startSimulator();
    const goneServer = await addServer(admin, gone);
    await gone.close();
    const unreachable = await admin.get(`/api/admin/tokens?serverId=${goneServer.id}`);
    assert.equal(unreachable.status, 502);
    assert.equal(unreachable.body.errorCode, "HOMESERVER_UNREACHABLE");
  });
});
