import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { WebSocket } from "ws";
import { freePort } from "../../lib/testing/processes.ts";
import { basicAuthorization } from "../src/auth/basic-header.ts";
import { addLoopbackAddress, requestFrom } from "./support/proxy-address.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

/** The Supervisor's ingress proxy: every ingress request reaches an add-on from this address (docs/ingress.md). */
const PROXY = "172.30.32.2";
const USER = "lan-admin";
const PASSWORD = "correct horse battery staple";
const TOKEN_PATH = "/api/hassio_ingress/Xm2cq3lV0uXkTq1Hn8rZpW";
/**
 * What arrives at the add-on for a panel request: Core adds `X-Hass-Source` and `X-Ingress-Path`, the Supervisor the
 * HA user of the ingress session (newer Supervisors) and `X-Forwarded-For`; the browser's own headers pass on.
 */
const INGRESS_HEADERS = {
  Host: "homeassistant.local:8123",
  "X-Hass-Source": "core.ingress",
  "X-Ingress-Path": TOKEN_PATH,
  "X-Forwarded-For": "192.168.1.40, 172.30.32.1",
  "X-Forwarded-Host": "homeassistant.local:8123",
  "X-Forwarded-Proto": "http",
  "X-Remote-User-Id": "6f1c2b3a4d5e6f708192a3b4c5d6e7f8",
  "X-Remote-User-Name": "anna",
  "X-Remote-User-Display-Name": "Anna",
};

/** Resolves with the HTTP status of a WebSocket handshake from `from` (101 when it opened). */
function handshake(url: string, from: string, headers: Record<string, string>): Promise<number> {
  const socket = new WebSocket(url, { headers, localAddress: from });
  return new Promise((resolve, reject) => {
    socket.once("open", () => {
      socket.close();
      resolve(101);
    });
    socket.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

/**
 * Issue 21 item 1: a login saved on the settings page must not lock the sidebar panel. The hub as the add-on runs it
 * (allow-list of run.sh, a LAN port), real sockets from the proxy's address (added to `lo` in the test's network
 * namespace) and from others.
 */
describe("hub login and Home Assistant's ingress", () => {
  let hub: TestHub;
  let main: string;
  let lan: string;

  before(async () => {
    addLoopbackAddress(PROXY);
    const lanPort = await freePort();
    hub = await createTestHub({
      env: { HUB_ALLOWED_IPS: `${PROXY},127.0.0.1,::1`, HUB_LAN_PORT: String(lanPort) },
    });
    // The steps: credentials saved on the settings page (what its PUT does), so the LAN port opens too.
    await hub.ctx.auth.setCredentials(USER, PASSWORD);
    const server = await hub.hub.listen();
    main = `127.0.0.1:${server.port}`;
    lan = `127.0.0.1:${lanPort}`;
  });
  after(async () => {
    await hub?.stop();
  });

  it("serves the panel, the API and the live WebSocket through ingress without any prompt", async () => {
    const page = await requestFrom(PROXY, `http://${main}/`, { headers: INGRESS_HEADERS });
    assert.equal(page.status, 200, page.body);
    assert.equal(page.headers["www-authenticate"], undefined);
    assert.match(page.body, new RegExp(`<base href="${TOKEN_PATH}/">`));
    const bridges = await requestFrom(PROXY, `http://${main}/api/matter/bridges`, { headers: INGRESS_HEADERS });
    assert.equal(bridges.status, 200, bridges.body);
    const status = await requestFrom(PROXY, `http://${main}/api/settings/auth`, { headers: INGRESS_HEADERS });
    assert.deepEqual(JSON.parse(status.body), { enabled: true, username: USER, source: "settings" });
    // The settings page itself, saving the login again from the panel (same-origin, as the browser sends it).
    const saved = await requestFrom(PROXY, `http://${main}/api/settings/auth`, {
      method: "PUT",
      headers: { ...INGRESS_HEADERS, "Content-Type": "application/json", Origin: "http://homeassistant.local:8123" },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    assert.equal(saved.status, 200, saved.body);
    assert.equal(await handshake(`ws://${main}/api/ws`, PROXY, INGRESS_HEADERS), 101);
  });

  it("works with an older Supervisor that names no HA user", async () => {
    const { "X-Remote-User-Id": _, "X-Remote-User-Name": __, "X-Remote-User-Display-Name": ___, ...older } = INGRESS_HEADERS;
    assert.equal((await requestFrom(PROXY, `http://${main}/api/matter/bridges`, { headers: older })).status, 200);
  });

  it("asks for the login on direct access, also with ingress headers from any other address", async () => {
    for (const [from, headers] of [
      ["127.0.0.1", {}],
      // Loopback is allow-listed (the health check), and with the host network every process on the host reaches
      // it: the ingress headers from there prove nothing.
      ["127.0.0.1", INGRESS_HEADERS],
      // The proxy's address without the header Core always adds is not an ingress request.
      [PROXY, { Host: "homeassistant.local:8123" }],
    ] as const) {
      const refused = await requestFrom(from, `http://${main}/api/matter/bridges`, { headers });
      assert.equal(refused.status, 401, `${from} ${JSON.stringify(headers)}`);
      assert.match(String(refused.headers["www-authenticate"]), /^Basic realm=/);
      assert.equal((await requestFrom(from, `http://${main}/`, { headers })).status, 401);
    }
    assert.equal(await handshake(`ws://${main}/api/ws`, "127.0.0.1", INGRESS_HEADERS), 401);
    const good = { Authorization: basicAuthorization(USER, PASSWORD) };
    assert.equal((await requestFrom("127.0.0.1", `http://${main}/api/matter/bridges`, { headers: good })).status, 200);
  });

  it("never waives the login on the LAN port, whatever the address and headers", async () => {
    for (const from of [PROXY, "127.0.0.1"]) {
      const refused = await requestFrom(from, `http://${lan}/api/matter/bridges`, { headers: INGRESS_HEADERS });
      assert.equal(refused.status, 401, from);
    }
    assert.equal(await handshake(`ws://${lan}/api/ws`, PROXY, INGRESS_HEADERS), 401);
    const good = { Authorization: basicAuthorization(USER, PASSWORD) };
    assert.equal((await requestFrom(PROXY, `http://${lan}/api/matter/bridges`, { headers: good })).status, 200);
  });

  it("keeps the main port closed to addresses off the allow-list, ingress headers or not", async () => {
    addLoopbackAddress("192.0.2.7");
    const refused = await requestFrom("192.0.2.7", `http://${main}/api/matter/bridges`, { headers: INGRESS_HEADERS });
    assert.equal(refused.status, 403);
  });
});
