import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Diagnostic } from "@matter/main";
import { QrCode } from "@matter/main/types";
import { render } from "./matter-log.ts";

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
