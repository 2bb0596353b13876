import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryLogger } from "../../../../../lib/testing/fixtures.ts";
import { ACCOUNT, EMAIL, PASSWORD } from "../../testing/appliance-harness.ts";
import { CloudError, signInProblem } from "./cloud-client.ts";
import { SimulatedCloud } from "./simulated-cloud.ts";
import { VeSyncClient } from "./vesync-client.ts";

describe("VeSync-style cloud client over HTTP", () => {
  it("signs in (the cloud accepts only the password's MD5), lists devices, reads status and sends commands", async () => {
    const cloud = new SimulatedCloud({ email: EMAIL, password: PASSWORD, devices: ACCOUNT });
    const server = await cloud.listen(memoryLogger().log);
    try {
      const client = new VeSyncClient({ baseUrl: `http://127.0.0.1:${server.port}/` });
      const session = await client.signIn(EMAIL, PASSWORD);
      assert.equal(session.accountId, "1234567");
      assert.ok(!session.token.includes(PASSWORD));
      const devices = await client.listDevices(session);
      assert.deepEqual(devices[0], { cid: "fry2", name: "Dual fryer", model: "CAF-DC601S", online: true });
      const plug = devices.find((d) => d.cid === "plug");
      assert.ok(plug);
      assert.deepEqual(await client.status(session, plug), { enabled: false });
      await client.command(session, plug, { type: "power", on: true });
      assert.deepEqual(await client.status(session, plug), { enabled: true });
      cloud.setOnline("plug", false);
      await assert.rejects(client.status(session, plug), (e: unknown) => e instanceof CloudError && e.code === "offline");
      cloud.expireTokens();
      await assert.rejects(client.listDevices(session), (e: unknown) => e instanceof CloudError && e.code === "token_expired");
      await assert.rejects(client.signIn(EMAIL, "nope"), (e: unknown) => e instanceof CloudError && e.code === "auth");
    } finally {
      await server.close();
    }
  });

  it("words network trouble for the status line", async () => {
    const client = new VeSyncClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 2000 });
    const error = await client.signIn(EMAIL, PASSWORD).catch((e: unknown) => e);
    assert.ok(error instanceof CloudError);
    assert.equal(error.code, "network");
    assert.match(signInProblem(error), /^sign-in failed: the cloud is unreachable/);
    const failing = new VeSyncClient({ fetch: async () => new Response("oops", { status: 502 }) });
    assert.match(signInProblem(await failing.signIn(EMAIL, PASSWORD).catch((e: unknown) => e)), /unreachable \(HTTP 502/);
  });
});
