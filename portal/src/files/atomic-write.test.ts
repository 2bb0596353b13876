import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { writeFileAtomic } from "./atomic-write.ts";

describe("writeFileAtomic", () => {
  let root: string;
  /** Each test writes into its own folder, so that a leftover of one cannot be blamed on another. */
  let dir: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "portal-atomic-"));
  });
  beforeEach(() => {
    dir = mkdtempSync(join(root, "case-"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const leftovers = (folder = dir) => readdirSync(folder).filter((name) => name.includes(".tmp-"));
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it("creates a file with the content and the default mode 0644", async () => {
    const path = join(dir, "new.txt");
    await writeFileAtomic(path, "hello\n");
    assert.equal(readFileSync(path, "utf8"), "hello\n");
    assert.equal(modeOf(path), 0o644);
    assert.deepEqual(leftovers(), []);
  });

  it("writes bytes as given", async () => {
    const path = join(dir, "bytes.bin");
    const bytes = new Uint8Array([0, 1, 2, 0xff, 0x89, 0x50]);
    await writeFileAtomic(path, bytes);
    assert.deepEqual(new Uint8Array(readFileSync(path)), bytes);
  });

  it("replaces the file by a new one: an open reader keeps the old content, a new reader sees the new", async () => {
    const path = join(dir, "replace.txt");
    writeFileSync(path, "old content");
    const inodeBefore = statSync(path).ino;
    const reader = openSync(path, "r");
    await writeFileAtomic(path, "new");
    const buffer = Buffer.alloc(64);
    const read = readSync(reader, buffer, 0, buffer.length, 0);
    assert.equal(buffer.subarray(0, read).toString(), "old content", "the old file was not truncated or overwritten");
    assert.equal(readFileSync(path, "utf8"), "new");
    assert.notEqual(statSync(path).ino, inodeBefore, "a new file was renamed over the old one");
    assert.deepEqual(leftovers(), []);
  });

  it("never lets a concurrent reader see a partial file", async () => {
    const path = join(dir, "concurrent.txt");
    const size = 512 * 1024;
    const versions = ["a", "b"].map((letter) => letter.repeat(size));
    await writeFileAtomic(path, versions[0] as string);
    let writing = true;
    const writer = (async () => {
      for (let i = 1; i <= 30; i++) await writeFileAtomic(path, versions[i % 2] as string);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const text = await readFile(path, "utf8");
      assert.ok(text === versions[0] || text === versions[1], `a read saw ${text.length} bytes of a mixed or partial file`);
      reads++;
    }
    await writer;
    assert.ok(reads > 0);
    assert.deepEqual(leftovers(), []);
  });

  it("applies the requested mode exactly, whatever the umask and the previous file's mode", async () => {
    const path = join(dir, "secret.env");
    const umask = process.umask(0o077);
    try {
      await writeFileAtomic(path, "TOKEN=1\n", 0o600);
      assert.equal(modeOf(path), 0o600);
      await writeFileAtomic(path, "TOKEN=2\n", 0o600);
      assert.equal(modeOf(path), 0o600, "still 0600 after a replacement");
      await writeFileAtomic(path, "public\n", 0o644);
      assert.equal(modeOf(path), 0o644, "0644 even under a 077 umask");
    } finally {
      process.umask(umask);
    }
    writeFileSync(join(dir, "was-public"), "x", { mode: 0o644 });
    await writeFileAtomic(join(dir, "was-public"), "now secret", 0o600);
    assert.equal(modeOf(join(dir, "was-public")), 0o600, "a secret replacing a public file is 0600");
  });

  it("keeps the old file and leaves no temporary file when the rename fails", async () => {
    // The target is a directory: the temporary file is written, then rename(2) refuses to replace a directory.
    const target = join(dir, "occupied");
    mkdirSync(target);
    writeFileSync(join(target, "inside"), "kept");
    await assert.rejects(writeFileAtomic(target, "data"), (error: NodeJS.ErrnoException) =>
      ["EISDIR", "ENOTEMPTY", "EEXIST"].includes(String(error.code)),
    );
    assert.equal(statSync(target).isDirectory(), true);
    assert.equal(readFileSync(join(target, "inside"), "utf8"), "kept");
    assert.deepEqual(leftovers(), []);
  });

  it("keeps the old file and leaves no temporary file when writing the data fails", async () => {
    const path = join(dir, "write-fails.txt");
    writeFileSync(path, "previous");
    // Data that cannot be written (a caller bug) fails inside the write step, after the temporary file exists.
    await assert.rejects(writeFileAtomic(path, 42 as unknown as string), TypeError);
    assert.equal(readFileSync(path, "utf8"), "previous");
    assert.deepEqual(leftovers(), []);
  });

  it("fails without side effects when the directory does not exist", async () => {
    const path = join(dir, "missing", "file.txt");
    await assert.rejects(writeFileAtomic(path, "x"), { code: "ENOENT" });
    assert.deepEqual(leftovers(), []);
  });
});
