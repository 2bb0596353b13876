import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningHttpServer } from "../../lib/http-server.ts";
import { RawHttpConnection } from "../../lib/testing/raw-http.ts";
import { createTestHub, type TestHub } from "./support/test-context.ts";

const B = "fuzzBoundary";
const TYPE = `multipart/form-data; boundary=${B}`;
const part = (name: string, body: string, extra = "") =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${body}\r\n`;
const filePart = (body: string) => part("file", body, '; filename="backup.zip"');
const close = `--${B}--\r\n`;
const zipish = "PK\u0003\u0004 not really a zip";

/** [name, Content-Type, body]: malformed, truncated, hostile and merely wrong multipart bodies. */
const CASES: [string, string | undefined, string | Buffer][] = [
  ["no boundary parameter", "multipart/form-data", filePart(zipish) + close],
  ["another boundary than the body's", "multipart/form-data; boundary=other", filePart(zipish) + close],
  ["empty boundary", "multipart/form-data; boundary=", filePart(zipish) + close],
  ["unterminated quoted boundary", `multipart/form-data; boundary="${B}`, filePart(zipish) + close],
  ["boundary over 70 characters", `multipart/form-data; boundary=${"b".repeat(300)}`, filePart(zipish) + close],
  ["a part that never ends", TYPE, `--${B}\r\nContent-Disposition: form-data; name="file"; filename="b.zip"\r\n\r\nabc`],
  ["no closing boundary", TYPE, filePart(zipish)],
  ["headers cut short", TYPE, `--${B}\r\nContent-Disposition: form-da`],
  [
    "a 200 KB part header",
    TYPE,
    `--${B}\r\nX-Big: ${"a".repeat(200_000)}\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n${close}`,
  ],
  ["a part without Content-Disposition", TYPE, `--${B}\r\n\r\nabc\r\n${close}`],
  ["binary garbage", TYPE, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))],
  ["an empty body", TYPE, ""],
  ["only the closing boundary", TYPE, close],
  ["file sent as a text field", TYPE, part("file", zipish) + close],
  ["two files", TYPE, filePart(zipish) + filePart(zipish) + close],
  ["options that are not JSON", TYPE, filePart(zipish) + part("options", "{includeIdentity") + close],
  ["options of the wrong shape", TYPE, filePart(zipish) + part("options", '{"includeIdentity":"yes"}') + close],
  ["a file that is no ZIP", TYPE, filePart(zipish) + close],
  ["nested multipart", TYPE, part("file", `--${B}\r\n${filePart(zipish)}`, '; filename="b.zip"') + close],
  ["a boundary inside a header", TYPE, `--${B}\r\nContent-Disposition: form-data; name="--${B}"\r\n\r\nx\r\n${close}`],
  ["text/plain", "text/plain", filePart(zipish) + close],
  ["form-urlencoded", "application/x-www-form-urlencoded", "file=abc"],
  ["JSON", "application/json", '{"file":"abc"}'],
  ["no Content-Type", undefined, filePart(zipish) + close],
];

/** Every file under `dir` with its size: a refused upload must leave the data dir exactly as it was. */
function tree(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    return entry.isDirectory()
      ? [`${path}/`, ...tree(join(dir, entry.name), path)]
      : [`${path} ${statSync(join(dir, path)).size}`];
  });
}

/**
 * Issue 16 item 11 (hub part): every multipart route answers 400 `{error}` to a malformed body and changes nothing;
 * the plugin archive upload (raw `.tgz`, not multipart) answers 415 to multipart and 400 to what is no archive.
 */
describe("hub: hostile bodies on the upload routes", () => {
  let hub: TestHub;
  let http: RunningHttpServer;

  const send = async (path: string, type: string | undefined, body: string | Buffer) => {
    const bytes = typeof body === "string" ? Buffer.from(body, "latin1") : body;
    const connection = await RawHttpConnection.open(http.port);
    try {
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${type === undefined ? "" : `Content-Type: ${type}\r\n`}`;
      await connection.write(`${head}Content-Length: ${bytes.length}\r\n\r\n`);
      await connection.write(bytes);
      const response = await connection.response(20_000);
      return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
    } finally {
      connection.destroy();
    }
  };

  before(async () => {
    hub = await createTestHub();
    http = await hub.hub.listen();
  });
  after(async () => {
    await hub?.stop();
  });

  for (const path of ["/api/backup/restore/preview", "/api/backup/restore"]) {
    it(`${path}: 400 {error} for each malformed body, nothing changed`, async () => {
      const before = tree(hub.dataDir);
      for (const [name, type, body] of CASES) {
        const response = await send(path, type, body);
        assert.equal(response.status, 400, `${name}: ${JSON.stringify(response.body)}`);
        assert.deepEqual(Object.keys(response.body), ["error"], name);
      }
      assert.deepEqual(tree(hub.dataDir), before);
      assert.equal((await fetch(`http://127.0.0.1:${http.port}/api/health/live`)).status, 200);
    });
  }

  it("refuses a body of hundreds of thousands of parts at once (the platform parser took minutes), nothing changed", {
    timeout: 30_000,
  }, async () => {
    const before = tree(hub.dataDir);
    const many = Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\nb\r\n`.repeat(300_000) + close,
    );
    for (const path of ["/api/backup/restore/preview", "/api/backup/restore"]) {
      const response = await send(path, TYPE, many);
      assert.equal(response.status, 400);
      assert.match(String(response.body.error), /more than 8 parts/);
    }
    assert.deepEqual(tree(hub.dataDir), before);
  });

  it("/api/plugins/upload: 415 for multipart and other types, 400 for an empty body or one that is no archive", async () => {
    const before = tree(hub.dataDir);
    for (const [name, type, body] of CASES.filter(([, type]) => type !== undefined)) {
      const response = await send("/api/plugins/upload", type, body);
      assert.equal(response.status, 415, `${name}: ${JSON.stringify(response.body)}`);
    }
    for (const body of ["", "not a tarball", "\u001f\u008b\u0008 truncated gzip"]) {
      const response = await send("/api/plugins/upload", "application/octet-stream", body);
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.deepEqual(Object.keys(response.body), ["error"]);
    }
    const plugins = (await (await fetch(`http://127.0.0.1:${http.port}/api/plugins`)).json()) as { packages: unknown[] };
    assert.deepEqual(plugins.packages, []);
    assert.deepEqual(
      tree(hub.dataDir).filter((path) => !before.includes(path) && !/^plugin-uploads\/$/.test(path)),
      [],
      "no package installed or left behind",
    );
  });
});
