import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpError } from "../../../lib/http-error.ts";
import { homeserverPath, homeserverUrl } from "./homeserver-path.ts";

const refused = (run: () => unknown) =>
  assert.throws(run, (error: unknown) => error instanceof HttpError && error.status === 400 && error.code === "BAD_REQUEST");

describe("homeserverPath", () => {
  it("makes each value exactly one encoded segment", () => {
    const token = (value: string) => homeserverPath`/_synapse/admin/v1/registration_tokens/${value}`;
    assert.equal(token("abc-._~"), "/_synapse/admin/v1/registration_tokens/abc-._~");
    assert.equal(token("a/b"), "/_synapse/admin/v1/registration_tokens/a%2Fb");
    assert.equal(token("a?b"), "/_synapse/admin/v1/registration_tokens/a%3Fb");
    assert.equal(token("a#b"), "/_synapse/admin/v1/registration_tokens/a%23b");
    assert.equal(token("%2e%2e"), "/_synapse/admin/v1/registration_tokens/%252e%252e");
    assert.equal(token("..."), "/_synapse/admin/v1/registration_tokens/...", "three dots are a plain name");
    assert.equal(
      homeserverPath`/_matrix/client/v3/profile/${"@alice:example.org"}/displayname`,
      "/_matrix/client/v3/profile/%40alice%3Aexample.org/displayname",
    );
  });

  it("refuses values that are no segment: empty, . and ..", () => {
    for (const value of ["", ".", ".."]) refused(() => homeserverPath`/_synapse/admin/v1/registration_tokens/${value}`);
  });
});

describe("homeserverUrl", () => {
  it("puts the path under the base's own path, unchanged", () => {
    assert.equal(
      homeserverUrl("http://synapse:8008", "/_matrix/client/versions").href,
      "http://synapse:8008/_matrix/client/versions",
    );
    assert.equal(
      homeserverUrl("https://example.org/matrix", "/_synapse/admin/v1/registration_tokens/a%2Fb").href,
      "https://example.org/matrix/_synapse/admin/v1/registration_tokens/a%2Fb",
    );
  });

  it("refuses a path that URL parsing would move elsewhere: the intended prefix must stay", () => {
    for (const path of [
      "/_synapse/admin/v1/registration_tokens/..",
      "/_synapse/admin/v1/registration_tokens/.",
      "/_synapse/admin/v1/registration_tokens/%2e%2e",
      "/_synapse/admin/v1/registration_tokens/%2E.",
      "/_synapse/admin/v1/registration_tokens/..\\..",
      "/_synapse/admin/v1/registration_tokens/a?b",
      "/_synapse/admin/v1/registration_tokens/a#b",
      "_matrix/client/versions",
    ]) {
      refused(() => homeserverUrl("http://synapse:8008/prefix", path));
    }
  });
});
