import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { call, simulator } from "./test-support.ts";

const profile = (userId: string, field?: string) =>
  `/_matrix/client/v3/profile/${encodeURIComponent(userId)}${field ? `/${field}` : ""}`;

describe("profiles", { concurrency: true }, () => {
  it("lets a user set their own display name and avatar, and anyone read them", async (t) => {
    const hs = await simulator(t, { serverName: "p.test", seed: { users: [{ localpart: "bot", accessToken: "bot-token" }] } });
    assert.deepEqual((await call(hs, "GET", profile("@bot:p.test"))).body, { displayname: "bot" }, "defaults to the localpart");
    const put = await call(hs, "PUT", profile("@bot:p.test", "displayname"), {
      token: "bot-token",
      body: { displayname: "  Helper " },
    });
    assert.deepEqual([put.status, put.body], [200, {}]);
    await call(hs, "PUT", profile("@bot:p.test", "avatar_url"), { token: "bot-token", body: { avatar_url: "mxc://p.test/abc" } });
    assert.deepEqual((await call(hs, "GET", profile("@bot:p.test"))).body, {
      displayname: "Helper",
      avatar_url: "mxc://p.test/abc",
    });
    assert.deepEqual(
      (await call(hs, "GET", `/_matrix/client/r0/profile/${encodeURIComponent("@bot:p.test")}/displayname`)).body,
      {
        displayname: "Helper",
      },
    );
    await call(hs, "DELETE", profile("@bot:p.test", "avatar_url"), { token: "bot-token" });
    assert.deepEqual((await call(hs, "GET", profile("@bot:p.test", "avatar_url"))).body, {}, "an unset field is left out");
    await call(hs, "PUT", profile("@bot:p.test", "displayname"), { token: "bot-token", body: { displayname: "" } });
    const gone = await call(hs, "GET", profile("@bot:p.test"));
    assert.deepEqual([gone.status, gone.body.errcode], [404, "M_NOT_FOUND"], "an empty profile is not found");
  });

  it("lets a server admin change another user's profile and refuses everyone else", async (t) => {
    const hs = await simulator(t, {
      serverName: "p.test",
      seed: {
        users: [
          { localpart: "bot", accessToken: "bot-token" },
          { localpart: "eve", accessToken: "eve-token" },
        ],
      },
    });
    const byAdmin = await call(hs, "PUT", profile("@bot:p.test", "displayname"), {
      token: hs.adminToken,
      body: { displayname: "Set by admin" },
    });
    assert.equal(byAdmin.status, 200);
    assert.equal(hs.users().find((u) => u.userId === "@bot:p.test")?.displayName, "Set by admin");
    const byEve = await call(hs, "PUT", profile("@bot:p.test", "displayname"), {
      token: "eve-token",
      body: { displayname: "x" },
    });
    assert.deepEqual(byEve.body, { errcode: "M_FORBIDDEN", error: "Cannot set another user's displayname" });
    const notAString = await call(hs, "PUT", profile("@bot:p.test", "displayname"), {
      token: "eve-token",
      body: { displayname: 5 },
    });
    assert.equal(notAString.body.error, "Cannot set another user's displayname", "checked before the value's type");
    assert.equal(
      (await call(hs, "PUT", profile("@bot:p.test", "displayname"), { body: { displayname: "x" } })).body.errcode,
      "M_MISSING_TOKEN",
    );
  });

  it("validates like Synapse: user id, missing key, null, type and length", async (t) => {
    const hs = await simulator(t, { serverName: "p.test", seed: { users: [{ localpart: "bot", accessToken: "bot-token" }] } });
    const put = (field: string, body: unknown, userId = "@bot:p.test") =>
      call(hs, "PUT", profile(userId, field), { token: "bot-token", body });
    assert.deepEqual((await put("displayname", {})).body, { errcode: "M_MISSING_PARAM", error: "Missing key 'displayname'" });
    assert.deepEqual((await put("displayname", { displayname: null })).body, {
      errcode: "M_INVALID_PARAM",
      error: "'displayname' must be a string",
    });
    assert.equal((await put("displayname", { displayname: 5 })).body.errcode, "M_INVALID_PARAM");
    assert.equal((await put("displayname", { displayname: "x".repeat(257) })).body.error, "Displayname is too long (max 256)");
    assert.equal(
      (await put("avatar_url", { avatar_url: `mxc://${"x".repeat(1000)}` })).body.error,
      "Avatar URL is too long (max 1000)",
    );
    assert.deepEqual((await put("displayname", { displayname: "x" }, "not-a-user")).body.errcode, "M_INVALID_PARAM");
    assert.equal(
      (await put("displayname", { displayname: "x" }, "@bot:elsewhere.test")).body.error,
      "User is not hosted on this homeserver",
    );
    assert.deepEqual((await call(hs, "GET", profile("@nobody:p.test"))).body, {
      errcode: "M_UNKNOWN",
      error: "No row found (profiles)",
    });
    assert.deepEqual((await call(hs, "GET", profile("@nobody:p.test", "displayname"))).body, {
      errcode: "M_NOT_FOUND",
      error: "Profile was not found",
    });
    assert.equal((await call(hs, "POST", profile("@bot:p.test", "displayname"))).status, 405);
  });
});
