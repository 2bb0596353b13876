import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gif, ico, png } from "./support/images.ts";
import type { PortalClient, Reply } from "./support/portal-client.ts";
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
  const storedFiles = () => (existsSync(assetsDir()) ? readdirSync(assetsDir()).filter((name) => !name.startsWith(".")) : []);

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
    const before = storedFiles().length;
    const exact = await upload(profile.id, "favicon", pngOfSize(256 * KB), "exact.png");
    assert.equal(exact.status, 201, exact.text);
    assert.equal(exact.body.asset.size, 256 * KB);
    const over = await upload(profile.id, "favicon", pngOfSize(256 * KB + 1), "over.png");
    assert.deepEqual(refusal(over), [413, "PAYLOAD_TOO_LARGE"]);
    assert.equal(storedFiles().length, before + 1, "the refused file was not stored");
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
    const before = new Set(storedFiles());
    const purposes = ["logo", "hero", "background", "favicon", "logo"];
    for (const [index, name] of hostile.entries()) {
      const reply = await uploadRawName(profile.id, purposes[index] as string, png(), name);
      assert.equal(reply.status, 201, `${name}: ${reply.text}`);
      const shown = String(reply.body.asset.filename);
      assert.equal(/[\\/]/.test(shown) || shown === ".." || shown === ".", false, `${name} shown as ${shown}`);
      const served = await fetch(`${portal.url}${reply.body.asset.url}`);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), png(), "the asset is served from where it was stored");
    }
    const added = storedFiles().filter((name) => !before.has(name));
    assert.equal(added.length, 4, "four purposes hold a file (the second logo replaced the first)");
    for (const name of storedFiles()) assert.match(name, STORED_NAME);
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
    const before = storedFiles().length;
    const headerOnly = await upload(profile.id, "favicon", Buffer.from([0, 0, 1, 0, 1, 0]), "favicon.ico", "image/x-icon");
    assert.deepEqual(refusal(headerOnly), [415, "UNSUPPORTED_MEDIA_TYPE"]);
    assert.match(headerOnly.body.error, /icon directory/);
    const truncated = ico().subarray(0, ico().length - 10);
    assert.deepEqual(refusal(await upload(profile.id, "favicon", truncated, "favicon.ico")), [415, "UNSUPPORTED_MEDIA_TYPE"]);
    assert.equal(storedFiles().length, before, "nothing stored");
    const whole = await upload(profile.id, "favicon", ico(), "favicon.ico");
    assert.equal(whole.status, 201, "the complete icon is accepted");
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
      [null, 0, "Matrix registration", "#0dbd8b", null],
    );
    assert.equal((await fetch(`${portal.url}${logo.body.asset.url}`)).status, 404, "its logo is gone too");
  });
});
