import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { gif, ico, jpeg, png, SVG, webp } from "./support/images.ts";
import type { PortalClient, Reply } from "./support/portal-client.ts";
import { storedAssetNames } from "./support/portal-db.ts";
import { addServer, startPortalWithHomeserver, stopPortalWithHomeserver, type TestPortal } from "./support/portal-harness.ts";

const DEFAULT_FIELDS = [
  "appTitle",
  "subtitle",
  "welcomeHeadline",
  "registrationText",
  "successText",
  "footerText",
  "usernameHint",
  "logoAlt",
  "primaryColor",
  "accentColor",
  "backgroundColor",
  "textColor",
  "colorScheme",
  "layoutPreset",
  "locale",
  "privacyPolicyUrl",
  "termsUrl",
  "imprintUrl",
  "supportUrl",
  "contactEmail",
  "clientLinks",
];

describe("branding", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  // Asset bytes live in the database (migration 0013), one stored image per asset record.
  const assetFiles = () => storedAssetNames(portal.dataDir);

  before(async () => {
    ({ portal, hs, admin } = await startPortalWithHomeserver({ homeserver: { serverName: "branding.test" }, server: false }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  async function auditActions(): Promise<string[]> {
    const reply = await admin.get("/api/admin/audit?limit=200");
    return (reply.body.logs as { action: string }[]).map((entry) => entry.action).reverse();
  }
  async function createProfile(name: string): Promise<Record<string, unknown> & { id: string }> {
    const reply = await admin.post("/api/admin/branding", { name });
    assert.equal(reply.status, 201, reply.text);
    return reply.body.profile;
  }
  function upload(profileId: string, purpose: string | undefined, bytes: Buffer | string, filename: string, type = "") {
    const form = new FormData();
    if (purpose !== undefined) form.set("purpose", purpose);
    form.set("file", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], { type }), filename);
    return admin.upload(`/api/admin/branding/${profileId}/assets`, form);
  }
  const refusal = (reply: Reply) => [reply.status, reply.body.errorCode];
  /**
   * Posts a multipart body of `size` bytes with node:http and returns the status, tolerating the server answering
   * (and closing) before the whole body is sent, as it does for a body over the limit (fetch trips over that).
   */
  function rawUploadStatus(profileId: string, size: number): Promise<number> {
    const boundary = "----portal-test-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nhero\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="h.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const body = Buffer.concat([head, png(), Buffer.alloc(size), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${portal.url}/api/admin/branding/${profileId}/assets`, {
        method: "POST",
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(body.length),
          origin: portal.url,
          cookie: `portal_session=${admin.cookie}`,
          "x-forwarded-for": admin.options.ip ?? "10.99.0.1",
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
      });
      req.end(body);
    });
  }

  it("creates a draft profile with every default, lists, reads and 404s", async () => {
    const profile = await createProfile("Spring");
    assert.equal(profile.isDraft, true);
    assert.equal(profile.isActive, false);
    assert.equal(profile.version, 0);
    assert.deepEqual(profile.assets, []);
    assert.deepEqual(profile.customized, []);
    for (const field of DEFAULT_FIELDS) assert.ok(field in profile, field);
    assert.equal(profile.layoutPreset, "centered");
    assert.match(String(profile.primaryColor), /^#[0-9a-f]{6}$/);
    assert.ok((profile.clientLinks as unknown[]).length >= 3, "client download links by default");
    assert.equal((await admin.get(`/api/admin/branding/${profile.id}`)).body.profile.name, "Spring");
    assert.ok((await admin.get("/api/admin/branding")).body.profiles.some((p: { id: string }) => p.id === profile.id));
    const missing = await admin.get("/api/admin/branding/00000000-0000-0000-0000-000000000000");
    assert.deepEqual(refusal(missing), [404, "NOT_FOUND"]);
    assert.equal((await admin.post("/api/admin/branding", {})).status, 400);
    assert.equal((await admin.post("/api/admin/branding", { name: "x", extra: 1 })).status, 400);
    assert.equal((await portal.client().get("/api/admin/branding")).status, 401);
    assert.equal((await auditActions()).at(-1), "branding.created");
  });

  it("updates fields with validation; null restores a default; edits make a draft", async () => {
    const profile = await createProfile("Edits");
    const put = (body: unknown) => admin.put(`/api/admin/branding/${profile.id}`, body);
    const updated = await put({
      appTitle: "Join Example",
      primaryColor: "#AA00FF",
      layoutPreset: "split",
      termsUrl: "https://example.org/terms",
      privacyPolicyUrl: "https://example.org/privacy",
      footerText: "© Example",
      clientLinks: [{ name: "Element", url: "https://app.element.io/", platform: "web" }],
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.profile.primaryColor, "#aa00ff");
    assert.equal(updated.body.profile.layoutPreset, "split");
    assert.deepEqual(updated.body.profile.customized.sort(), [
      "appTitle",
      "clientLinks",
      "footerText",
      "layoutPreset",
      "primaryColor",
      "privacyPolicyUrl",
      "termsUrl",
    ]);
    for (const bad of [
      { primaryColor: "red" },
      { termsUrl: "javascript:alert(1)" },
      { layoutPreset: "diagonal" },
      { appTitle: "x".repeat(101) },
      { contactEmail: "not-mail" },
      { clientLinks: [{ name: "x", url: "ftp://x" }] },
      { unknownField: 1 },
      {},
    ]) {
      assert.equal((await put(bad)).status, 400, JSON.stringify(bad));
    }
    const reset = await put({ primaryColor: null, name: "Edits v2" });
    assert.equal(reset.body.profile.primaryColor, "#0a7f5f");
    assert.equal(reset.body.profile.name, "Edits v2");
    assert.equal(reset.body.profile.customized.includes("primaryColor"), false);
    assert.equal((await auditActions()).at(-1), "branding.updated");
  });

  it("serves the defaults publicly until a profile is published, then the published copy only", async () => {
    const empty = await portal.client().get("/api/branding");
    assert.equal(empty.status, 200);
    assert.equal(empty.body.branding.profileId, null);
    assert.equal(empty.body.branding.appTitle, "Matrix registration");
    assert.equal(empty.body.branding.logoUrl, null);
    assert.equal(empty.body.branding.layoutPreset, "centered");

    const first = await createProfile("First");
    await admin.put(`/api/admin/branding/${first.id}`, { appTitle: "First title", subtitle: "Hello" });
    const published = await admin.patch(`/api/admin/branding/${first.id}`, { action: "publish" });
    assert.equal(published.status, 200);
    assert.deepEqual(
      [published.body.profile.isActive, published.body.profile.isDraft, published.body.profile.version],
      [true, false, 1],
    );
    const live = (await portal.client().get("/api/branding")).body.branding;
    assert.deepEqual([live.profileId, live.appTitle, live.subtitle, live.version], [first.id, "First title", "Hello", 1]);
    assert.equal(live.welcomeHeadline, "Welcome", "unset fields come with their defaults");

    // A later edit is a draft: the public page keeps the published copy until the next publish.
    await admin.put(`/api/admin/branding/${first.id}`, { appTitle: "Unpublished" });
    assert.equal((await admin.get(`/api/admin/branding/${first.id}`)).body.profile.isDraft, true);
    assert.equal((await portal.client().get("/api/branding")).body.branding.appTitle, "First title");
    await admin.patch(`/api/admin/branding/${first.id}`, { action: "publish" });
    assert.equal((await portal.client().get("/api/branding")).body.branding.version, 2);

    const second = await createProfile("Second");
    await admin.patch(`/api/admin/branding/${second.id}`, { action: "publish" });
    const profiles = (await admin.get("/api/admin/branding")).body.profiles as { id: string; isActive: boolean }[];
    assert.deepEqual(
      profiles.filter((p) => p.isActive).map((p) => p.id),
      [second.id],
      "one active profile",
    );
    assert.equal((await portal.client().get("/api/branding")).body.branding.profileId, second.id);
    assert.equal((await admin.patch(`/api/admin/branding/${second.id}`, { action: "archive" })).status, 400);
    const actions = await auditActions();
    assert.equal(actions.filter((a) => a === "branding.published").length, 3);

    // A server linked to a published profile gets that profile on its page.
    const server = await addServer(admin, hs, { fields: { brandingProfileId: first.id } });
    const linked = (await portal.client().get(`/api/branding?slug=${server.slug}`)).body.branding;
    assert.equal(linked.profileId, first.id);
    const unknownLink = await admin.put(`/api/admin/servers/${server.id}`, { brandingProfileId: "no-such-profile" });
    assert.deepEqual(refusal(unknownLink), [400, "BAD_REQUEST"]);
  });

  it("accepts PNG, JPEG, WebP, GIF and ICO by their bytes and serves them with caching headers", async () => {
    const profile = await createProfile("Images");
    const cases: [string, Buffer, string, string][] = [
      ["logo", png(), "logo.png", "image/png"],
      ["hero", jpeg(), "hero.jpg", "image/jpeg"],
      ["background", webp(), "bg.webp", "image/webp"],
      ["favicon", ico(), "favicon.ico", "image/x-icon"],
    ];
    for (const [purpose, bytes, name, mime] of cases) {
      // The declared type is deliberately wrong: only the bytes count.
      const reply = await upload(profile.id, purpose, bytes, name, "application/octet-stream");
      assert.equal(reply.status, 201, reply.text);
      const asset = reply.body.asset;
      assert.deepEqual([asset.purpose, asset.mimeType, asset.size, asset.filename], [purpose, mime, bytes.length, name]);
      assert.equal(asset.url, `/api/branding/assets/${asset.id}`);
      const served = await fetch(`${portal.url}${asset.url}`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get("content-type"), mime);
      assert.equal(served.headers.get("cache-control"), "public, max-age=86400");
      assert.equal(served.headers.get("x-content-type-options"), "nosniff");
      const etag = served.headers.get("etag");
      assert.match(String(etag), /^"[0-9a-f]{64}"$/);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
      const again = await fetch(`${portal.url}${asset.url}`, { headers: { "if-none-match": String(etag) } });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get("etag"), etag);
      const weak = await fetch(`${portal.url}${asset.url}`, { headers: { "if-none-match": `"other", W/${etag}` } });
      assert.equal(weak.status, 304);
    }
    // GIF as a replacement logo (one per purpose): the old record and file go.
    const oldLogo = (await admin.get(`/api/admin/branding/${profile.id}`)).body.profile.assets.find(
      (a: { purpose: string }) => a.purpose === "logo",
    );
    const filesBefore = (await assetFiles()).length;
    const replaced = await upload(profile.id, "logo", gif(), "anim.gif", "image/gif");
    assert.equal(replaced.status, 201);
    assert.equal(replaced.body.asset.mimeType, "image/gif");
    assert.equal(replaced.body.replaced, oldLogo.id);
    assert.equal((await assetFiles()).length, filesBefore, "the replaced file was removed");
    assert.equal((await fetch(`${portal.url}${oldLogo.url}`)).status, 404);
    const assets = (await admin.get(`/api/admin/branding/${profile.id}`)).body.profile.assets as { purpose: string }[];
    assert.deepEqual(assets.map((a) => a.purpose).sort(), ["background", "favicon", "hero", "logo"]);

    await admin.patch(`/api/admin/branding/${profile.id}`, { action: "publish" });
    const live = (await portal.client().get("/api/branding")).body.branding;
    assert.equal(live.logoUrl, replaced.body.asset.url);
    for (const key of ["faviconUrl", "heroUrl", "backgroundUrl"])
      assert.match(String(live[key]), /^\/api\/branding\/assets\/[0-9a-f-]{36}$/);

    // Deleting an asset removes record and file.
    const hero = assets.find((a) => a.purpose === "hero") as unknown as { id: string; url: string };
    const removed = await admin.delete(`/api/admin/branding/${profile.id}/assets/${hero.id}`);
    assert.equal(removed.status, 200);
    assert.equal((await fetch(`${portal.url}${hero.url}`)).status, 404);
    assert.equal((await assetFiles()).length, filesBefore - 1);
    assert.equal((await admin.delete(`/api/admin/branding/${profile.id}/assets/${hero.id}`)).status, 404);
    const actions = await auditActions();
    assert.equal(actions.filter((a) => a === "branding.asset.uploaded").length, 5);
    assert.equal(actions.at(-1), "branding.asset.deleted");
    assert.equal((await fetch(`${portal.url}/api/branding/assets/not-an-id`)).status, 404);
  });

  it("refuses SVG in every disguise, other files, empty and oversized uploads", async () => {
    const profile = await createProfile("Refusals");
    const files = (await assetFiles()).length;
    const svgCases: [string, string | Buffer, string, string][] = [
      ["plain SVG", SVG, "logo.svg", "image/svg+xml"],
      ["SVG renamed .png", SVG, "logo.png", "image/png"],
      ["SVG declared image/png", SVG, "logo", "image/png"],
      ["XML prolog", `<?xml version="1.0" encoding="UTF-8"?>\n${SVG}`, "logo.png", "image/png"],
      ["BOM and whitespace", `\ufeff \n${SVG}`, "logo.gif", "image/gif"],
      ["HTML", "<!doctype html><script>alert(1)</script>", "logo.jpg", "image/jpeg"],
      ["<svg hidden behind a PNG header", Buffer.concat([png().subarray(0, 33), Buffer.from(SVG)]), "logo.png", "image/png"],
    ];
    for (const [what, bytes, name, type] of svgCases) {
      const reply = await upload(profile.id, "logo", typeof bytes === "string" ? Buffer.from(bytes) : bytes, name, type);
      assert.deepEqual(refusal(reply), [415, "UNSUPPORTED_MEDIA_TYPE"], what);
      assert.match(reply.body.error, /SVG/, what);
    }
    const pdf = await upload(profile.id, "logo", Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"), "logo.png", "image/png");
    assert.deepEqual(refusal(pdf), [415, "UNSUPPORTED_MEDIA_TYPE"]);
    assert.deepEqual(refusal(await upload(profile.id, "logo", Buffer.alloc(0), "empty.png", "image/png")), [400, "BAD_REQUEST"]);
    const bigFavicon = Buffer.concat([png(), Buffer.alloc(256 * 1024)]);
    assert.deepEqual(refusal(await upload(profile.id, "favicon", bigFavicon, "f.png", "image/png")), [413, "PAYLOAD_TOO_LARGE"]);
    assert.equal((await upload(profile.id, "logo", bigFavicon, "l.png", "image/png")).status, 201, "256 KB+ is fine for a logo");
    const bigLogo = Buffer.concat([png(), Buffer.alloc(2 * 1024 * 1024)]);
    assert.deepEqual(refusal(await upload(profile.id, "hero", bigLogo, "h.png", "image/png")), [413, "PAYLOAD_TOO_LARGE"]);
    assert.equal(await rawUploadStatus(profile.id, 3 * 1024 * 1024), 413, "refused by the body limit before parsing");
    assert.equal((await upload(profile.id, "icon", png(), "x.png")).status, 400, "unknown purpose");
    assert.equal((await upload(profile.id, undefined, png(), "x.png")).status, 400, "purpose missing");
    const noFile = new FormData();
    noFile.set("purpose", "logo");
    noFile.set("file", "not a file");
    assert.equal((await admin.upload(`/api/admin/branding/${profile.id}/assets`, noFile)).status, 400);
    assert.equal((await admin.post(`/api/admin/branding/${profile.id}/assets`, { purpose: "logo" })).status, 400, "JSON body");
    assert.equal((await upload("00000000-0000-0000-0000-000000000000", "logo", png(), "x.png")).status, 404);
    assert.equal((await assetFiles()).length, files + 1, "only the accepted upload left a file");
  });

  it("resets to defaults (assets removed) and deletes profiles with their files; no storage path is ever shown", async () => {
    const profile = await createProfile("Disposable");
    await admin.put(`/api/admin/branding/${profile.id}`, { appTitle: "Custom" });
    await upload(profile.id, "logo", png(), "a.png", "image/png");
    await upload(profile.id, "favicon", ico(), "a.ico", "image/x-icon");
    await admin.patch(`/api/admin/branding/${profile.id}`, { action: "publish" });
    const before = (await assetFiles()).length;
    const reset = await admin.patch(`/api/admin/branding/${profile.id}`, { action: "reset" });
    assert.equal(reset.status, 200);
    assert.equal(reset.body.profile.appTitle, "Matrix registration");
    assert.deepEqual(reset.body.profile.customized, []);
    assert.deepEqual(reset.body.profile.assets, []);
    assert.equal(reset.body.profile.isDraft, true);
    assert.equal((await assetFiles()).length, before - 2);

    await upload(profile.id, "hero", jpeg(), "h.jpg", "image/jpeg");
    const server = await addServer(admin, hs, { fields: { brandingProfileId: profile.id } });
    const deleted = await admin.delete(`/api/admin/branding/${profile.id}`);
    assert.deepEqual([deleted.status, deleted.body], [200, { deleted: true }]);
    assert.equal((await assetFiles()).length, before - 2);
    assert.equal((await admin.get(`/api/admin/branding/${profile.id}`)).status, 404);
    assert.equal(
      (await admin.get(`/api/admin/servers/${server.id}`)).body.server.brandingProfileId,
      null,
      "servers are unlinked",
    );
    assert.equal((await admin.delete(`/api/admin/branding/${profile.id}`)).status, 404);
    const actions = await auditActions();
    assert.ok(actions.includes("branding.reset"));
    assert.equal(actions.at(-1), "branding.deleted");

    const everything = [
      (await admin.get("/api/admin/branding")).text,
      (await portal.client().get("/api/branding")).text,
      (await admin.get("/api/admin/audit?limit=200")).text,
    ].join("\n");
    assert.equal(everything.includes(portal.dataDir), false);
    assert.equal(everything.includes("branding-assets"), false);
    for (const name of await assetFiles()) assert.equal(everything.includes(name), false, "no generated file name");
  });
});
