import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Diagnostic, Logger } from "@matter/main";
import { QrCode } from "@matter/main/types";
import { createHubLogger } from "../logs/hub-logger.ts";
import { LogRing } from "../logs/log-ring.ts";
import { forwardMatterLogs, render } from "./matter-log.ts";

describe("matter.js log lines forwarded into the hub log", () => {
  it("lose pairing codes however matter.js formats them (the line CommissioningServer writes by default)", () => {
    const qr = "MT:Y.K9042C00KA0648G00";
    // What matter.js 0.17's CommissioningServer.initiateCommissioning logs, value for value.
    const values = [
      Diagnostic.strong("bridge-1"),
      "is uncommissioned",
      Diagnostic.dict({ passcode: 20202021, discriminator: 3840, "manual pairing code": "34970112332" }),
      Diagnostic.list([
        QrCode.get(qr).trim(),
        `QR code URL: https://project-chip.github.io/connectedhomeip/qrcode.html?data=${qr}\n`,
      ]),
    ];
    const line = render({ prefix: "", values });
    for (const secret of ["20202021", "34970112332", qr, "K9042C00KA0648G00"])
      assert.ok(!line.includes(secret), `${secret}: ${line}`);
    assert.ok(!/[\u2580-\u259F]/.test(line), "the QR picture is gone");
    assert.match(
      line,
      /^bridge-1 is uncommissioned passcode: \[redacted\] discriminator: 3840 manual pairing code: \[redacted\]/,
    );
    assert.match(line, /\[QR code redacted\]/);
    assert.match(line, /data=MT:\[redacted\]/);
  });

  it("lose DoorLock PINs in command payloads", () => {
    const line = render({ prefix: "", values: ["invoke unlockDoor", Diagnostic.dict({ pinCode: "3532393037333138" })] });
    assert.equal(line.includes("3532393037333138"), false);
    assert.match(line, /pinCode: \[redacted\]/);
  });
});

describe("matter.js log lines in the readable format", () => {
  it("draw matter.js's multi-line output on real lines, and still lose the pairing codes and the QR picture", () => {
    process.env.TZ = "UTC";
    const out: string[] = [];
    const ring = new LogRing();
    const log = createHubLogger({
      level: "debug",
      ring,
      format: "pretty",
      stdout: { write: (text: string) => void out.push(text) },
    });
    const stop = forwardMatterLogs(log.child({ component: "matter" }), "info");
    try {
      const matter = Logger.get("Commissioning");
      const qr = "MT:Y.K9042C00KA0648G00";
      matter.notice(
        Diagnostic.strong("bridge-1"),
        "is uncommissioned",
        Diagnostic.dict({ passcode: 20202021, discriminator: 3840, "manual pairing code": "34970112332" }),
        Diagnostic.list([QrCode.get(qr).trim(), `QR code URL: https://example.invalid/qrcode.html?data=${qr}`]),
      );
      Logger.get("Endpoints").notice("Endpoints", Diagnostic.list(["aggregator", Diagnostic.list(["light-1", "light-2"])]));
    } finally {
      stop();
      ring.close();
    }
    const text = out.join("");
    for (const secret of ["20202021", "34970112332", "K9042C00KA0648G00"]) assert.ok(!text.includes(secret), text);
    assert.ok(!/[\u2580-\u259F]/.test(text), "no QR picture");
    assert.match(text, / INFO {2}hub \[matter\/Commissioning\] bridge-1 is uncommissioned passcode: \[redacted\]/);
    assert.match(text, /\[QR code redacted\]/);
    // The tree keeps its shape: one real line per node, indented under the line's head.
    assert.match(text, / INFO {2}hub \[matter\/Endpoints\] Endpoints\n {6}aggregator\n {8}light-1\n {8}light-2\n/);
    assert.ok(!text.includes("\\n"), "no escaped line breaks");
  });
});
