import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { api } from "./support/bridge-fixture.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const LOCK = "lock.back_door";
const PIN = "60418257";

/**
 * The peer hub sends the PIN as `pinCode`: the real hub (no HA needed) takes either name through the API, and
 * the PIN stored is the one a remote unlock is then checked against.
 */
describe("lock credential writes accept the peer hub's pinCode", () => {
  let hub: TestHub;
  let call: ReturnType<typeof api>;

  before(async () => {
    hub = await createTestHub();
    call = api(hub);
  });
  after(async () => {
    await hub?.stop();
  });

  it("stores a PIN sent as pinCode, and an unlock is checked against it", async () => {
    const created = await call<Record<string, unknown>>("PUT", `/api/lock-credentials/${LOCK}`, { pinCode: PIN });
    assert.equal(created.status, 201);
    assert.equal(created.body.entityId, LOCK);
    assert.equal(created.body.enabled, true);
    assert.ok(!JSON.stringify(created.body).includes(PIN));
    const check = hub.ctx.lockCredentials.pinCheck;
    assert.equal(await check(LOCK, PIN), "valid");
    assert.equal(await check(LOCK, "11112222"), "invalid");
    assert.ok(!(await readFile(hub.ctx.lockCredentials.path, "utf8")).includes(PIN));
  });

  it("takes pin and pinCode together when they agree, with enabled", async () => {
    const replaced = await call("PUT", `/api/lock-credentials/${LOCK}`, { pin: "2468", pinCode: "2468", enabled: false });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.enabled, false);
    assert.equal(await hub.ctx.lockCredentials.pinCheck(LOCK, "0000"), "not_required", "disabled");
    assert.equal((await call("PATCH", `/api/lock-credentials/${LOCK}/enabled`, { enabled: true })).status, 200);
    assert.equal(await hub.ctx.lockCredentials.pinCheck(LOCK, "2468"), "valid");
  });

  it("answers 400 {error} without echoing a PIN for differing names or a bad pinCode, and changes nothing", async () => {
    const refused: [unknown, RegExp][] = [
      [{ pin: "13579", pinCode: "97531" }, /pin and pinCode differ; send one of them/],
      [{ pinCode: "12" }, /pinCode: pinCode must be a string of 4 to 8 digits/],
      [{ pinCode: 12345 }, /pinCode: pinCode must be a string of 4 to 8 digits/],
      [{ pinCode: "1234", pinCod: "x" }, /nothing else/],
      [{ enabled: true }, /pin must be a string of 4 to 8 digits \(0-9\), given as pin or pinCode/],
    ];
    for (const [body, message] of refused) {
      const response = await call<{ error: string }>("PUT", `/api/lock-credentials/${LOCK}`, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(response.body), ["error"]);
      assert.match(response.body.error, message);
      for (const pin of ["13579", "97531", "12345"]) assert.ok(!response.body.error.includes(pin));
    }
    // Still the PIN of the previous test.
    assert.equal(await hub.ctx.lockCredentials.pinCheck(LOCK, "2468"), "valid");
  });
});
