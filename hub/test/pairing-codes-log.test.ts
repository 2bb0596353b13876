import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { loadHubConfig } from "../src/config.ts";
import { createHub, type Hub } from "../src/hub.ts";
import { createHubLogger } from "../src/logs/hub-logger.ts";
import { LogRing } from "../src/logs/log-ring.ts";
import { api, type BridgeRecord, waitForStatus } from "./support/bridge-fixture.ts";
import { eventually, randomMatterPortBase, type TestHub } from "./support/test-context.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface LogEntry {
  level: string;
  msg: string;
}

/**
 * The hub as main.ts builds it in demo mode (its own simulated HA, a "Demo bridge" created and started), with the
 * real logger: every line goes to "stdout" in the readable format (kept here) and to the ring behind /api/logs. Debug level, so matter.js's
 * own INFO lines are forwarded too.
 */
describe("pairing codes stay out of the logs; the bridge record still shows them", { timeout: 120_000 }, () => {
  const stdout: string[] = [];
  const ring = new LogRing();
  let dataDir: string;
  let hub: Hub;
  let call: ReturnType<typeof api>;

  before(async () => {
    assertNetworkIsolated();
    dataDir = mkdtempSync(join(tmpdir(), "hub-pairing-log-"));
    const config = loadHubConfig({ HUB_DATA_DIR: dataDir, HUB_DEMO: "1", HUB_HOST: "127.0.0.1", HUB_PORT: "0" }, root);
    const log = createHubLogger({
      level: "debug",
      ring,
      format: "pretty",
      stdout: { write: (line: string) => void stdout.push(line) },
    });
    hub = await createHub({
      config,
      log,
      logRing: ring,
      version: "9.9.9",
      haRunningPollMs: 100,
      firstMatterPort: randomMatterPortBase(),
    });
    hub.start();
    call = api({ app: hub.app } as TestHub);
  });
  after(async () => {
    await hub?.stop();
    ring.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("logs neither the passcode, nor the manual pairing code, nor the QR payload or picture, at any level", async () => {
    const demo = await eventually(async () => (await call<BridgeRecord[]>("GET", "/api/matter/bridges")).body[0], 30_000);
    const bridge = await waitForStatus(call, demo.id, "running");
    const { passcode, manualPairingCode, qrPairingCode } = bridge.commissioning;
    assert.match(manualPairingCode, /^\d{11}$/, "the record still carries the codes (the user asked for them there)");
    assert.match(qrPairingCode, /^MT:/);

    const all = await call("GET", "/api/logs?limit=500");
    const texts = [...stdout, JSON.stringify(all.body), JSON.stringify([...ring.newestFirst()])];
    assert.ok(stdout.length > 50, "the logs were captured");
    const dashed = `${manualPairingCode.slice(0, 4)}-${manualPairingCode.slice(4, 7)}-${manualPairingCode.slice(7)}`;
    for (const text of texts) {
      for (const secret of [String(passcode), manualPairingCode, dashed, qrPairingCode, qrPairingCode.slice(3)]) {
        assert.ok(!text.includes(secret), `a log line carries ${secret}: ${text.slice(0, 300)}`);
      }
      assert.ok(!/[\u2580-\u259F]{4}/.test(text), "a QR code picture was logged");
    }

    // stdout is the readable format, and says where the codes are.
    assert.ok(
      stdout.some((line) =>
        /^\S+ \S+ INFO {2}hub \[matter\/Commissioning\] .* is uncommissioned; its pairing codes are on the bridge's page/.test(
          line,
        ),
      ),
      stdout.slice(0, 20).join(""),
    );
    assert.ok(!stdout.some((line) => line.startsWith("{")), "no JSON on stdout");

    // The announcements happened, without the codes: matter.js's and demo mode's own (a notice at info, not a
    // problem: the dashboard's "Recent problems" lists warnings and errors).
    const entries = (await call<{ logs: LogEntry[] }>("GET", "/api/logs?level=info,warn&limit=500")).body.logs;
    assert.ok(
      entries.some((e) => e.level === "info" && e.msg.includes("is uncommissioned; its pairing codes are on the bridge's page")),
    );
    assert.ok(
      entries.some((e) => e.level === "info" && /DEMO MODE: created "Demo bridge".*pairing codes are on its page/.test(e.msg)),
    );
  });
});
