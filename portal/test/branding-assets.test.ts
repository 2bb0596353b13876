import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { until } from "../../lib/testing/polling.ts";
import { gif, ico, png } from "./support/images.ts";
import type { PortalClient, Reply } from "./support/portal-client.ts";
import { storedAssetNames } from "./support/portal-db.ts";
import { removeDataDir, startTestPortal, type TestPortal } from "./support/portal-harness.ts";

const KB = 1024;
const MB = 1024 * 1024;
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp|gif|ico)$/;

/** A valid PNG followed by padding: `size` bytes in all (file-type reads the signature, the rest is never decoded). */
const pngOfSize = (size: number) => {
  const head = png();
  return Buffer.concat([head, Buffer.alloc(size - head.length)]);
};

/** Asset limits, served formats, hostile file names and fallbacks of the branding API, over HTTP. */
describe("branding assets: limits, names and fallbacks", () => {
  let portal: TestPortal;
  let admin: PortalClient;
  const assetsDir = () => join(portal.dataDir, "branding-assets");
  // Asset bytes live in the database (migration 0013); no file is written under the data dir any more.
  const storedFiles = () => storedAssetNames(portal.dataDir);

  before(async () => {
    portal = await startTestPortal();
    admin = await portal.admin();
  });
  after(async () => {
    await portal.stop();
    removeDataDir(portal.dataDir);
  });

  async function createProfile(name: string): Promise<{ id: string }> {
    const reply = await admin.post("/api/admin/branding", { name });
    assert.equal(reply.status, 201, reply.text);
    return reply.body.profile;
  }
  function upload(profileId: string, purpose: string, bytes: Buffer, filename: string, type = "application/octet-stream") {
    const form = new FormData();
    form.set("purpose", purpose);
    form.set("file", new Blob([new Uint8Array(bytes)], { type }), filename);
    return admin.upload(`/api/admin/branding/${profileId}/assets`, form);
  }
  /**
   * A multipart body written by hand, so that the file name reaches the portal exactly as given (a client library
   * might tidy a name with slashes before sending it).
   */
  function uploadRawName(profileId: string, purpose: string, bytes: Buffer, filename: string): Promise<Reply> {
    const boundary = "----portal-raw-name";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return admin.request("POST", `/api/admin/branding/${profileId}/assets`, {
      raw: new Blob([new Uint8Array(body)]),
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
  }
  const refusal = (reply: Reply) => [reply.status, reply.body.errorCode];
  /**
   * Sends `size` bytes as the admin and resolves with the status, with `Content-Length` or chunked. node:http shows
   * an answer that arrives while the body is still being sent (the 413); fetch only reports the closed socket.
   */
  function sendLarge(path: string, contentType: string, size: number, announce: boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { "content-type": contentType, cookie: `portal_session=${admin.cookie}` };
      if (announce) headers["content-length"] = String(size);
      const request = httpRequest(`${portal.url}${path}`, { method: "POST", headers: { ...headers, origin: portal.url } });
      request.on("response", (response) => resolve(response.statusCode ?? 0)).on("error", reject);
      const chunk = Buffer.alloc(64 * 1024, 65);
      let sent = 0;
      const pump = () => {
        while (sent < size && !request.destroyed) {
          const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
          sent += piece.length;
          if (!request.write(piece)) return void request.once("drain", pump);
        }
        request.end();
      };
      pump();
    });
  }

  it("serves an uploaded GIF with its type, caching headers, ETag and nosniff", async () => {
    const profile = await createProfile("Gif");
    const bytes = gif();
    const reply = await upload(profile.id, "logo", bytes, "spinner.gif");
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual([reply.body.asset.mimeType, reply.body.asset.size], ["image/gif", bytes.length]);
    const served = await fetch(`${portal.url}${reply.body.asset.url}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get("content-type"), "image/gif");
    assert.equal(served.headers.get("content-length"), String(bytes.length));
    assert.equal(served.headers.get("cache-control"), "public, max-age=86400");
    assert.equal(served.headers.get("x-content-type-options"), "nosniff");
    const etag = served.headers.get("etag");
    assert.match(String(etag), /^"[0-9a-f]{64}"$/);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
    const revalidated = await fetch(`${portal.url}${reply.body.asset.url}`, { headers: { "if-none-match": String(etag) } });
    assert.equal(revalidated.status, 304);
  });

  it("accepts a favicon of exactly 256 KB and refuses one byte more with 413", async () => {
    const profile = await createProfile("Favicon limit");
    const before = (await storedFiles()).length;
    const exact = await upload(profile.id, "favicon", pngOfSize(256 * KB), "exact.png");
    assert.equal(exact.status, 201, exact.text);
    assert.equal(exact.body.asset.size, 256 * KB);
    const over = await upload(profile.id, "favicon", pngOfSize(256 * KB + 1), "over.png");
    assert.deepEqual(refusal(over), [413, "PAYLOAD_TOO_LARGE"]);
    assert.equal((await storedFiles()).length, before + 1, "the refused file was not stored");
    const assets = (await admin.get(`/api/admin/branding/${profile.id}`)).body.profile.assets as { id: string }[];
    assert.deepEqual(
      assets.map((asset) => asset.id),
      [exact.body.asset.id],
      "the accepted favicon stays in place",
    );
  });

  it("accepts other purposes at exactly 2 MB and refuses one byte more with 413", async () => {
    const profile = await createProfile("Image limit");
    for (const purpose of ["logo", "hero", "background"]) {
      const exact = await upload(profile.id, purpose, pngOfSize(2 * MB), `${purpose}.png`);
      assert.equal(exact.status, 201, `${purpose}: ${exact.text}`);
      assert.equal(exact.body.asset.size, 2 * MB);
      const over = await upload(profile.id, purpose, pngOfSize(2 * MB + 1), `${purpose}.png`);
      assert.deepEqual(refusal(over), [413, "PAYLOAD_TOO_LARGE"], purpose);
    }
  });

  it("stores uploads under generated names whatever file name is sent", async () => {
    const profile = await createProfile("Traversal");
    const hostile = [
      "../../etc/passwd.png",
      "..\\..\\windows\\evil.png",
      "/etc/cron.d/job.png",
      "../branding-assets/../../escape.png",
      "..",
    ];
    const before = new Set(await storedFiles());
    const purposes = ["logo", "hero", "background", "favicon", "logo"];
    for (const [index, name] of hostile.entries()) {
      const reply = await uploadRawName(profile.id, purposes[index] as string, png(), name);
      assert.equal(reply.status, 201, `${name}: ${reply.text}`);
      const shown = String(reply.body.asset.filename);
      assert.equal(/[\\/]/.test(shown) || shown === ".." || shown === ".", false, `${name} shown as ${shown}`);
      const served = await fetch(`${portal.url}${reply.body.asset.url}`);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), png(), "the asset is served from where it was stored");
    }
    const added = (await storedFiles()).filter((name) => !before.has(name));
    assert.equal(added.length, 4, "four purposes hold an image (the second logo replaced the first)");
    assert.equal(existsSync(assetsDir()), false, "no file is written for an asset");
    for (const name of await storedFiles()) assert.match(name, STORED_NAME);
    for (const escaped of [
      join(assetsDir(), "../../etc/passwd.png"),
      join(portal.dataDir, "escape.png"),
      join(portal.dataDir, "..", "escape.png"),
      join(assetsDir(), "passwd.png"),
      join(assetsDir(), "evil.png"),
    ]) {
      assert.equal(existsSync(escaped), false, `${escaped} must not exist`);
    }
  });

  it("refuses an ICO that is only a header, or whose image lies outside the file, with 415", async () => {
    const profile = await createProfile("Ico");
    const before = (await storedFiles()).length;
    const headerOnly = await upload(profile.id, "favicon", Buffer.from([0, 0, 1, 0, 1, 0]), "favicon.ico", "image/x-icon");
    assert.deepEqual(refusal(headerOnly), [415, "UNSUPPORTED_MEDIA_TYPE"]);
    assert.match(headerOnly.body.error, /icon directory/);
    const truncated = ico().subarray(0, ico().length - 10);
    assert.deepEqual(refusal(await upload(profile.id, "favicon", truncated, "favicon.ico")), [415, "UNSUPPORTED_MEDIA_TYPE"]);
    assert.equal((await storedFiles()).length, before, "nothing stored");
    const whole = await upload(profile.id, "favicon", ico(), "favicon.ico");
    assert.equal(whole.status, 201, "the complete icon is accepted");
  });

  it("answers 400 to every malformed multipart body (413 when too big) and changes nothing", async () => {
    const profile = await createProfile("Fuzzed");
    const kept = await upload(profile.id, "logo", png(), "kept.png");
    assert.equal(kept.status, 201, kept.text);
    const path = `/api/admin/branding/${profile.id}/assets`;
    const state = async () => ({
      files: (await storedFiles()).sort(),
      assets: (await admin.get(`/api/admin/branding/${profile.id}`)).body.profile.assets,
      audit: (await admin.get("/api/admin/audit?action=branding.asset&limit=200")).body.total,
    });
    const before = await state();

    const image = png().toString("latin1");
    const part = (name: string, content: string, filename?: string) =>
      `Content-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n` +
      `${filename ? "Content-Type: image/png\r\n" : ""}\r\n${content}`;
    const form = (b: string) =>
      `--${b}\r\n${part("purpose", "hero")}\r\n--${b}\r\n${part("file", image, "a.png")}\r\n--${b}--\r\n`;
    const valid = form("xyz");
    const multipart = "multipart/form-data; boundary=xyz";
    const cases: [string, string | undefined, string | Buffer][] = [
      ["no content type", undefined, valid],
      ["JSON", "application/json", JSON.stringify({ purpose: "hero", file: image })],
      ["plain text", "text/plain", valid],
      ["raw image", "image/png", png()],
      ["url-encoded form", "application/x-www-form-urlencoded", "purpose=hero&file=a.png"],
      ["multipart/mixed", "multipart/mixed; boundary=xyz", valid],
      ["a longer media type", "multipart/form-datax; boundary=xyz", valid],
      ["missing boundary", "multipart/form-data", valid],
      ["empty boundary", "multipart/form-data; boundary=", valid],
      ["another boundary than the body's", "multipart/form-data; boundary=abc", valid],
      ["empty body", multipart, ""],
      ["only the closing delimiter", multipart, "--xyz--\r\n"],
      ["truncated in the file", multipart, valid.slice(0, valid.indexOf("IDAT"))],
      ["no closing delimiter", multipart, valid.slice(0, valid.lastIndexOf("--xyz--"))],
      ["a part that never ends", multipart, `--xyz\r\n${part("file", "A".repeat(512 * 1024), "a.png")}`],
      ["part headers that never end", multipart, `--xyz\r\n${part("purpose", "hero")}\r\nX-Pad: ${"h".repeat(1024 * 1024)}`],
      ["a header line without a colon", multipart, valid.replace('Content-Disposition: form-data; name="purpose"', "garbage")],
      ["a part without Content-Disposition", multipart, valid.replace(/Content-Disposition: [^\r]*\r\n/, "")],
      ["bare LF line ends", multipart, valid.replaceAll("\r\n", "\n")],
      ["binary garbage", multipart, Buffer.from([0, 255, 254, 0x2d, 0x2d, 0x78, 0x79, 0x7a, 13, 10, 0, 1, 2])],
      [
        "two files",
        multipart,
        `--xyz\r\n${part("purpose", "hero")}\r\n--xyz\r\n${part("file", image, "a.png")}\r\n--xyz\r\n${part("file", image, "b.png")}\r\n--xyz--\r\n`,
      ],
      ["the file as text", multipart, `--xyz\r\n${part("purpose", "hero")}\r\n--xyz\r\n${part("file", image)}\r\n--xyz--\r\n`],
      [
        "the purpose as a file",
        multipart,
        `--xyz\r\n${part("purpose", "hero", "p.txt")}\r\n--xyz\r\n${part("file", image, "a.png")}\r\n--xyz--\r\n`,
      ],
    ];
    for (const [name, type, body] of cases) {
      const reply = await admin.request("POST", path, {
        raw: new Blob([typeof body === "string" ? Buffer.from(body, "latin1") : new Uint8Array(body)]),
        headers: type === undefined ? {} : { "content-type": type },
      });
      assert.deepEqual(refusal(reply), [400, "BAD_REQUEST"], `${name}: ${reply.status} ${reply.text}`);
      assert.equal(reply.body.success, false, name);
    }

    // Too big, announced or streamed without a length: 413 before the body is parsed.
    assert.equal(await sendLarge(path, multipart, 2 * 1024 * 1024 + 64 * 1024 + 1, true), 413, "announced");
    assert.equal(await sendLarge(path, multipart, 8 * 1024 * 1024, false), 413, "streamed");
    // Request headers beyond Node's limit (16 KiB) are refused by the HTTP server itself.
    const padded = await admin.request("POST", path, {
      raw: valid,
      headers: { "content-type": multipart, "x-pad": "p".repeat(20_000) },
    });
    assert.equal(padded.status, 431);

    // A body cut off on the wire: the client announces more than it sends, then closes its side or resets.
    const requestLog = () => portal.logs().filter((line) => line.includes(path) && line.includes('"msg":"request'));
    const logged = requestLog().length;
    for (const hangUp of ["end", "destroy"] as const) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(new URL(portal.url).port), "127.0.0.1", () => {
          const head =
            `POST ${path} HTTP/1.1\r\nHost: ${new URL(portal.url).host}\r\nOrigin: ${portal.url}\r\n` +
            `Cookie: portal_session=${admin.cookie}\r\nContent-Type: ${multipart}\r\nContent-Length: 100000\r\n\r\n`;
          if (hangUp === "end") socket.end(head + valid.slice(0, 200));
          else socket.write(head + valid.slice(0, 200), () => setTimeout(() => socket.destroy(), 100));
        });
        socket.on("error", reject).on("close", () => resolve());
        socket.resume();
      });
    }
    await until("the cut-off uploads in the request log", () => requestLog().length >= logged + 2);
    assert.deepEqual(
      requestLog()
        .slice(logged)
        .map((line) => JSON.parse(line).status),
      [400, 400],
      "the cut-off uploads end as 400s, not as unhandled errors",
    );

    assert.deepEqual(await state(), before, "no file, no asset record, no audit entry");
    assert.equal(portal.logs().filter((line) => line.includes("unhandled error")).length, 0, "no 500 was logged");
    const still = await upload(profile.id, "hero", png(), "after.png");
    assert.equal(still.status, 201, "the portal still takes a well-formed upload");
  });

  it("falls back to the default branding when the active profile is deleted", async () => {
    const profile = await createProfile("Short-lived");
    await admin.put(`/api/admin/branding/${profile.id}`, { appTitle: "Soon gone", primaryColor: "#112233" });
    const logo = await upload(profile.id, "logo", png(), "logo.png");
    await admin.patch(`/api/admin/branding/${profile.id}`, { action: "publish" });
    const live = (await portal.client().get("/api/branding")).body.branding;
    assert.deepEqual([live.profileId, live.appTitle, live.logoUrl], [profile.id, "Soon gone", logo.body.asset.url]);

    assert.equal((await admin.delete(`/api/admin/branding/${profile.id}`)).status, 200);
    const fallback = await portal.client().get("/api/branding");
    assert.equal(fallback.status, 200);
    const branding = fallback.body.branding;
    assert.deepEqual(
      [branding.profileId, branding.version, branding.appTitle, branding.primaryColor, branding.logoUrl],
      [null, 0, "Matrix registration", "#0a7f5f", null],
    );
    assert.equal((await fetch(`${portal.url}${logo.body.asset.url}`)).status, 404, "its logo is gone too");
  });
});
