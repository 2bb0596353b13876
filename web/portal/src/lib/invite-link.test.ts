import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inviteLink, isLocalHost, tokenOf, withTokenInFragment } from "./invite-link.ts";

describe("invite links", () => {
  it("puts the token in the fragment, on the server's own domain or this portal with ?server=", () => {
    assert.equal(
      inviteLink({ slug: "demo", publicDomain: null }, "Kx7m.Q2~p_Z-9", "https://portal.example.org/"),
      "https://portal.example.org/?server=demo#token=Kx7m.Q2~p_Z-9",
    );
    assert.equal(
      inviteLink({ slug: "demo", publicDomain: "chat.example.org" }, "abc", "http://homeassistant.local:8483/admin"),
      "https://chat.example.org/#token=abc",
    );
    assert.equal(
      inviteLink({ slug: "x", publicDomain: null }, "abc", "http://192.168.1.5:8483/admin"),
      "http://192.168.1.5:8483/?server=x#token=abc",
      "relative to the base, not the console's path",
    );
  });

  it("reads the token from the fragment first, then from an older ?token= link", () => {
    assert.equal(tokenOf({ hash: "#token=abc", search: "?server=demo" }), "abc");
    assert.equal(tokenOf({ hash: "#token=abc", search: "?token=old" }), "abc");
    assert.equal(tokenOf({ hash: "", search: "?server=demo&token=old" }), "old");
    assert.equal(tokenOf({ hash: "#other=1", search: "" }), "");
    assert.equal(tokenOf({ hash: "#token=%20a%7Eb%20", search: "" }), "a~b");
  });

  it("moves a ?token= into the fragment, keeping the rest of the address", () => {
    assert.equal(withTokenInFragment("https://p.example/?server=demo&token=abc"), "https://p.example/?server=demo#token=abc");
    assert.equal(withTokenInFragment("https://p.example/?token=old#token=new"), "https://p.example/#token=new");
    assert.equal(withTokenInFragment("https://p.example/?server=demo#token=abc"), undefined);
  });

  it("tells addresses people outside the network cannot open", () => {
    for (const host of ["localhost", "homeassistant", "homeassistant.local", "nas.lan", "box.home.arpa", "10.0.0.4"])
      assert.equal(isLocalHost(host), true, host);
    for (const host of ["127.0.0.1", "192.168.1.5", "172.20.0.2", "169.254.1.1", "[::1]", "[fd00::1]", "[fe80::1]"])
      assert.equal(isLocalHost(host), true, host);
    for (const host of ["chat.example.org", "172.32.0.1", "8.8.8.8", "[2001:db8::1]", "portal.example.local.org"])
      assert.equal(isLocalHost(host), false, host);
  });
});
