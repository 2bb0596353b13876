import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { humanize } from "./format.ts";

describe("humanize: a key as a label", () => {
  it("spells acronyms in capitals and HA as Home Assistant", () => {
    assert.equal(humanize("ha_connected"), "Home Assistant connected");
    assert.equal(humanize("ha_fatal"), "Home Assistant fatal");
    assert.equal(humanize("vendorId"), "Vendor ID");
    assert.equal(humanize("mdns_interface"), "mDNS interface");
    assert.equal(humanize("qrPairingCode"), "QR pairing code");
    assert.equal(humanize("color_temperature_light"), "Color temperature light");
    assert.equal(humanize("bridge_running"), "Bridge running");
  });
});
