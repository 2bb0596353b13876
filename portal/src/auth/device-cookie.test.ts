import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SecretBox } from "../crypto/secret-box.ts";
import { DEVICE_TTL_MS, openDeviceCookie, sealDeviceCookie } from "./device-cookie.ts";
import { sealCookie } from "./session-cookie.ts";

const box = new SecretBox(Buffer.alloc(32, 7));

describe("device cookie", () => {
  it("names the account and a random device id until it expires 90 days after the login", () => {
    const cookie = sealDeviceCookie(box, "admin@portal.test", 1_000);
    const device = openDeviceCookie(box, cookie, 1_000 + DEVICE_TTL_MS - 1);
    assert.equal(device?.account, "admin@portal.test");
    assert.match(device?.id ?? "", /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(openDeviceCookie(box, sealDeviceCookie(box, "admin@portal.test", 1_000), 1_000)?.id, device?.id);
    assert.equal(openDeviceCookie(box, cookie, 1_000 + DEVICE_TTL_MS), undefined, "expired");
    assert.equal(cookie.includes("admin"), false, "the e-mail is sealed");
  });

  it("opens nothing but a device cookie of this portal's key", () => {
    const session = sealCookie(box, { sid: "s", exp: Number.MAX_SAFE_INTEGER });
    const otherKey = sealDeviceCookie(new SecretBox(Buffer.alloc(32, 8)), "admin@portal.test", 0);
    const notJson = box.seal("not json", "portal-device-cookie");
    const wrongShape = box.seal(JSON.stringify({ account: 1, id: "x", exp: Number.MAX_SAFE_INTEGER }), "portal-device-cookie");
    for (const value of [session, otherKey, notJson, wrongShape, "", "garbage", "v1:AAAA:BBBB:CCCC"]) {
      assert.equal(openDeviceCookie(box, value, 0), undefined, value);
    }
  });
});
