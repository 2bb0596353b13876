import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { freePort } from "../../lib/testing/processes.ts";
import { RawHttpConnection } from "../../lib/testing/raw-http.ts";
import { basicAuthorization } from "../src/auth/basic-header.ts";
import { createTestHub } from "./support/test-context.ts";

const USER = "scraper";
const PASSWORD = "correct horse battery";
const good = { Authorization: basicAuthorization(USER, PASSWORD) };

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The add-on's hub answers only Home Assistant's ingress proxy (HUB_ALLOWED_IPS). HUB_LAN_PORT opens a second port for
 * LAN clients (scripts, Prometheus) without that allow-list, where authentication is always required and the CSRF,
 * Host and body checks stay (docs/http-edge.md).
 */
describe("hub: the LAN port (HUB_LAN_PORT)", () => {
  it("answers LAN clients with credentials only, while the main port keeps answering only the allow-list", async () => {
    const [port, lanPort] = [await freePort(), await freePort()];
    const hub = await createTestHub({
      env: {
        HUB_PORT: String(port),
        HUB_LAN_PORT: String(lanPort),
        // Not loopback: the test's client plays a LAN client, which the ingress port must refuse.
        HUB_ALLOWED_IPS: "172.30.32.2",
        HUB_AUTH_USERNAME: USER,
        HUB_AUTH_PASSWORD: PASSWORD,
      },
    });
    try {
      await hub.hub.listen();
      const lan = (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${lanPort}${path}`, init);
      const main = await fetch(`http://127.0.0.1:${port}/api/metrics/prometheus`, { headers: good });
      assert.equal(main.status, 403, "the ingress port still answers only the proxy");

      assert.equal((await lan("/api/metrics/prometheus", { headers: good })).status, 200);
      assert.match(await (await lan("/api/metrics/prometheus", { headers: good })).text(), /hub_uptime_seconds/);
      assert.equal((await lan("/api/matter/bridges", { headers: good })).status, 200);
      for (const path of ["/api/matter/bridges", "/api/health/live", "/"]) {
        const refused = await lan(path);
        assert.equal(refused.status, 401, path);
        assert.match(refused.headers.get("www-authenticate") ?? "", /^Basic /);
      }
      assert.equal(
        (await lan("/api/matter/bridges", { headers: { Authorization: basicAuthorization(USER, "wrong") } })).status,
        401,
      );

      // The same protections as the main port: CSRF, content type, body limit.
      const json = { ...good, "Content-Type": "application/json" };
      const crossSite = await lan("/api/matter/bridges/actions/stop-all", {
        method: "POST",
        headers: { ...good, Origin: "http://evil.example" },
      });
      assert.equal(crossSite.status, 403);
      const plain = await lan("/api/settings/recovery", {
        method: "PUT",
        headers: { ...good, "Content-Type": "text/plain" },
        body: "{}",
      });
      assert.equal(plain.status, 415);
      const connection = await RawHttpConnection.open(lanPort);
      try {
        const auth = `Authorization: ${good.Authorization}\r\n`;
        await connection.write(
          `POST /api/matter/bridges HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${8 << 20}\r\n\r\n`,
        );
        assert.equal((await connection.response()).status, 413);
      } finally {
        connection.destroy();
      }
      assert.equal((await lan("/api/settings/recovery", { method: "PUT", headers: json, body: "{}" })).status, 400);
    } finally {
      await hub.stop();
    }
    assert.equal(await listening(lanPort), false, "closed with the hub");
  });

  it("stays closed without credentials and says why in the log", async () => {
    const lanPort = await freePort();
    const hub = await createTestHub({ env: { HUB_LAN_PORT: String(lanPort) } });
    try {
      const http = await hub.hub.listen();
      assert.equal((await fetch(`http://127.0.0.1:${http.port}/api/health/live`)).status, 200, "the main port opens");
      assert.equal(await listening(lanPort), false);
      assert.ok(
        hub.logLines().some((line) => /not opening the LAN port .* requires authentication/.test(line)),
        hub.logLines().join("\n"),
      );
    } finally {
      await hub.stop();
    }
  });

  it("refuses every request (403) once the settings-page credentials it opened with are removed", async () => {
    const lanPort = await freePort();
    const first = await createTestHub();
    const put = await first.app.request("/api/settings/auth", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    assert.equal(put.status, 200);
    await first.stop({ keepData: true });
    const hub = await createTestHub({ dataDir: first.dataDir, env: { HUB_LAN_PORT: String(lanPort) } });
    try {
      await hub.hub.listen();
      const lan = (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${lanPort}${path}`, init);
      assert.equal((await lan("/api/matter/bridges", { headers: good })).status, 200);
      assert.equal((await lan("/api/settings/auth", { method: "DELETE", headers: good })).status, 200);
      const refused = await lan("/api/matter/bridges");
      assert.equal(refused.status, 403);
      assert.match(((await refused.json()) as { error: string }).error, /only answers authenticated clients/);
      assert.equal((await lan("/api/health/live")).status, 403);
    } finally {
      await hub.stop();
    }
  });
});
