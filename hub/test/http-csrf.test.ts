import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/demo-home.ts";
import { type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import { basicAuthorization } from "../src/auth/basic-header.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const HOST = "127.0.0.1:8482";
const SAME = `http://${HOST}`;
const EVIL = "http://evil.example";

type Call = { status: number; body: Record<string, unknown> };

/**
 * Issue 16 item 2: without a login (the default outside the add-on) any web page the user visits could POST to the
 * hub. State-changing requests from another origin are refused with 403, JSON routes refuse other content types with
 * 415, and a name rebound to the hub's address is refused while the hub has no credentials (docs/http-edge.md).
 */
describe("hub: cross-site requests, content types and DNS rebinding", () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let bridgeId: string;

  // A Uint8Array body goes without a Content-Type (a string would get text/plain from fetch's Request).
  const request = async (method: string, path: string, headers: Record<string, string>, body?: BodyInit, env?: object) => {
    const response = await hub.app.request(path, { method, headers: { Host: HOST, ...headers }, body }, env);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} } as Call;
  };
  const status = async () => {
    const bridge = await request("GET", `/api/matter/bridges/${bridgeId}`, {});
    return bridge.body.status;
  };
  const start = (headers: Record<string, string>, body?: BodyInit) =>
    request("POST", `/api/matter/bridges/${bridgeId}/actions/start`, headers, body);

  before(async () => {
    assertNetworkIsolated();
    sim = await startHaSimulator({ token: "t", home: createDemoHome() });
    hub = await createTestHub({ ha: { url: sim.url, token: "t" }, start: true });
    await hub.homeAssistant.whenLoaded();
    const filter = { include: [{ type: "domain", value: "light" }], exclude: [] };
    const created = await request(
      "POST",
      "/api/matter/bridges",
      { "Content-Type": "application/json", Origin: SAME },
      JSON.stringify({ name: "Stopped", port: await freeUdpPort(), autoStart: false, filter }),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridgeId = String(created.body.id);
    assert.equal(await status(), "stopped");
  });
  after(async () => {
    await hub?.stop();
    await sim?.close();
  });

  it("refuses a state-changing request whose Origin, Referer or Sec-Fetch-Site names another site, and changes nothing", async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: EVIL },
      { Origin: "http://127.0.0.1:9999" },
      { Origin: "null" },
      { Referer: `${EVIL}/page.html` },
      { Origin: SAME, "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const refused = await start(headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.match(String(refused.body.error), /Cross-site request refused/);
      assert.deepEqual(Object.keys(refused.body), ["error"]);
    }
    const restore = await request("POST", "/api/backup/restore", {
      Origin: EVIL,
      "Content-Type": "multipart/form-data; boundary=x",
    });
    assert.equal(restore.status, 403, "a cross-site form cannot upload a backup to restore");
    const settings = await request("PUT", "/api/settings/auth", { Origin: EVIL, "Content-Type": "application/json" }, "{}");
    assert.equal(settings.status, 403);
    assert.equal(await status(), "stopped");
  });

  it("refuses a JSON route sent as text/plain, form data or without a type (415), before any change", async () => {
    const wrongTypes: Record<string, string>[] = [
      { "Content-Type": "text/plain;charset=UTF-8" },
      { "Content-Type": "application/x-www-form-urlencoded" },
      { "Content-Type": "multipart/form-data; boundary=x" },
      { "Content-Length": "2" },
    ];
    for (const headers of wrongTypes) {
      const refused = await start(headers, new TextEncoder().encode("{}") as Uint8Array<ArrayBuffer>);
      assert.equal(refused.status, 415, JSON.stringify(headers));
      assert.deepEqual(refused.body, { error: "This endpoint takes JSON: send the body with Content-Type: application/json" });
    }
    assert.equal(await status(), "stopped");
  });

  it("lets same-origin browsers and clients without Origin (curl, scripts) through", async () => {
    assert.equal((await start({ Origin: SAME, "Sec-Fetch-Site": "same-origin" })).status, 200);
    assert.equal((await request("POST", `/api/matter/bridges/${bridgeId}/actions/stop`, {})).status, 200);
    assert.equal((await start({ Referer: `${SAME}/bridges/x`, "Content-Type": "application/json" }, "{}")).status, 200);
    assert.equal((await request("POST", `/api/matter/bridges/${bridgeId}/actions/stop`, {})).status, 200);
    assert.equal(await status(), "stopped");
  });

  it("refuses WebSocket upgrades from another origin", async () => {
    const upgrade = { Upgrade: "websocket", Connection: "Upgrade", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "x" };
    const refused = await request("GET", "/api/ws", { ...upgrade, Origin: EVIL });
    assert.equal(refused.status, 403);
    assert.match(String(refused.body.error), /Cross-site request refused/);
    // Same origin reaches the upgrade itself (which needs a real socket: see live-ws.test.ts).
    assert.notEqual((await request("GET", "/api/ws", { ...upgrade, Origin: SAME })).status, 403);
  });

  it("refuses host names an attacker could rebind to the hub while it has no credentials (403); local names pass", async () => {
    for (const host of ["evil.example", "evil.example:8482", "hub.example.com", "127.0.0.1.nip.io:8482"]) {
      const refused = await request("GET", "/api/matter/bridges", { Host: host });
      assert.equal(refused.status, 403, host);
      assert.match(String(refused.body.error), /Host name not allowed.*HUB_ALLOWED_HOSTS/);
    }
    for (const host of [
      "127.0.0.1:8482",
      "192.168.1.20",
      "[fe80::1]:8482",
      "[::1]",
      "localhost:8482",
      "homeassistant",
      "homeassistant.local:8482",
      "hub.lan",
      "nas.home.arpa",
      "box.internal",
      "hub.local.",
    ]) {
      assert.equal((await request("GET", "/api/matter/bridges", { Host: host })).status, 200, host);
    }
  });

  it("accepts the ingress proxy's requests with Home Assistant's own host name, and checks their Origin too", async () => {
    const proxied = await createTestHub({ env: { HUB_ALLOWED_IPS: "172.30.32.2" } });
    try {
      const env = { incoming: { socket: { remoteAddress: "172.30.32.2", remoteFamily: "IPv4" } } };
      const ingress = { Host: "ha.example.com", "X-Ingress-Path": "/api/hassio_ingress/abc" };
      const call = async (headers: Record<string, string>) => {
        const response = await proxied.app.request("/api/home-assistant/refresh", { method: "POST", headers }, env);
        return response.status;
      };
      assert.equal((await proxied.app.request("/api/matter/bridges", { headers: ingress }, env)).status, 200);
      assert.notEqual(await call({ ...ingress, Origin: "https://ha.example.com" }), 403);
      assert.equal(await call({ ...ingress, Origin: EVIL }), 403);
      // A reverse proxy in front of Home Assistant that rewrote Host: HA passes the browser's host on.
      const rewritten = { ...ingress, Host: "127.0.0.1:8123", "X-Forwarded-Host": "ha.example.com" };
      assert.notEqual(await call({ ...rewritten, Origin: "https://ha.example.com" }), 403);
      // Without the ingress header the same request is an ordinary one: its Host must be local.
      const direct = await proxied.app.request("/api/matter/bridges", { headers: { Host: "ha.example.com" } }, env);
      assert.equal(direct.status, 403);
    } finally {
      await proxied.stop();
    }
  });

  it("answers other host names listed in HUB_ALLOWED_HOSTS, or any name once credentials are required", async () => {
    const listed = await createTestHub({ env: { HUB_ALLOWED_HOSTS: "hub.example.com, .home.example.org" } });
    const authenticated = await createTestHub({ env: { HUB_AUTH_USERNAME: "admin", HUB_AUTH_PASSWORD: "correct horse" } });
    try {
      const get = (target: TestHub, host: string, headers: Record<string, string> = {}) =>
        Promise.resolve(target.app.request("/api/matter/bridges", { headers: { Host: host, ...headers } })).then((r) => r.status);
      assert.equal(await get(listed, "hub.example.com"), 200);
      assert.equal(await get(listed, "hub.home.example.org:8482"), 200);
      assert.equal(await get(listed, "home.example.org"), 200);
      assert.equal(await get(listed, "evil.example.com"), 403);
      const good = { Authorization: basicAuthorization("admin", "correct horse") };
      assert.equal(await get(authenticated, "hub.example.com", good), 200, "a rebound name never carries the credentials");
      assert.equal(await get(authenticated, "hub.example.com"), 401);
    } finally {
      await listed.stop();
      await authenticated.stop();
    }
  });
});
