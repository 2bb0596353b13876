import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { ApiError, request } from "./http.ts";

// request() against a recording fetch: what goes on the wire for each kind of body.
const realFetch = globalThis.fetch;
let sent: { url: string; init: RequestInit }[] = [];
function answer(status: number, body: string): void {
  sent = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body, { status, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
}
const headers = () => sent[0]?.init.headers as Record<string, string>;

describe("request()", () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it("sends a plain value as JSON", async () => {
    answer(200, '{"ok":true}');
    assert.deepEqual(await request("api/x", { method: "POST", body: { a: 1 } }), { ok: true });
    assert.equal(sent[0]?.init.body, '{"a":1}');
    assert.equal(headers()["Content-Type"], "application/json");
  });

  it("sends a Blob as it is, with the given content type", async () => {
    answer(201, '{"installed":true}');
    const archive = new Blob([new Uint8Array([0x1f, 0x8b, 8])], { type: "application/gzip" });
    await request("api/upload", { method: "POST", body: archive, contentType: "application/octet-stream" });
    assert.equal(sent[0]?.init.body, archive);
    assert.equal(headers()["Content-Type"], "application/octet-stream");
  });

  it("sends an ArrayBuffer as it is, by default as application/octet-stream", async () => {
    answer(200, "");
    const bytes = new Uint8Array([1, 2, 3]);
    assert.equal(await request("api/upload", { method: "PUT", body: bytes.buffer }), undefined);
    assert.equal(sent[0]?.init.body, bytes.buffer);
    assert.equal(headers()["Content-Type"], "application/octet-stream");
  });

  it("keeps a Blob's own type when no content type is given", async () => {
    answer(200, "{}");
    await request("api/upload", { method: "POST", body: new Blob(["a,b"], { type: "text/csv" }) });
    assert.equal(headers()["Content-Type"], "text/csv");
  });

  it("lets FormData set its own multipart type", async () => {
    answer(200, "{}");
    const form = new FormData();
    form.set("file", new Blob(["x"]), "x.txt");
    await request("api/form", { method: "POST", body: form });
    assert.equal(sent[0]?.init.body, form);
    assert.equal(headers()["Content-Type"], undefined);
  });

  it("throws the server's error message with its status", async () => {
    answer(415, '{"error":"Send the .tgz as the raw request body"}');
    await assert.rejects(request("api/upload", { method: "POST", body: new Blob(["x"]) }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 415);
      assert.equal(error.message, "Send the .tgz as the raw request body");
      return true;
    });
  });
});
