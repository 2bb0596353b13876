import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readJsonFile, SerialWriter, writeFileAtomic } from "./atomic-file.ts";

const dir = mkdtempSync(join(tmpdir(), "atomic-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("atomic files", () => {
  it("writes through a temp file, leaves no temp behind, and keeps the mode private", async () => {
    const path = join(dir, "nested", "a.json");
    await writeFileAtomic(path, JSON.stringify({ a: 1 }));
    await writeFileAtomic(path, JSON.stringify({ a: 2 }));
    assert.deepEqual(JSON.parse(readFileSync(path, "utf8")), { a: 2 });
    assert.deepEqual(readdirSync(join(dir, "nested")), ["a.json"]);
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it("reads JSON, undefined when missing, and refuses a corrupt file", async () => {
    assert.equal(await readJsonFile(join(dir, "missing.json")), undefined);
    writeFileSync(join(dir, "bad.json"), "{not json");
    await assert.rejects(readJsonFile(join(dir, "bad.json")), /not valid JSON/);
  });

  it("serialises concurrent updates in call order", async () => {
    const writer = new SerialWriter();
    const order: number[] = [];
    await Promise.all(
      [30, 10, 0].map((delay, index) =>
        writer.run(async () => {
          await new Promise((resolve) => setTimeout(resolve, delay));
          order.push(index);
        }),
      ),
    );
    assert.deepEqual(order, [0, 1, 2]);
  });
});
