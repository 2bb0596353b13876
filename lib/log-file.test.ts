import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { logFileDestination, previousLogFile } from "./log-file.ts";
import { createLogger } from "./logger.ts";

describe("the log file (add-on: /config/logs/)", () => {
  const dir = mkdtempSync(join(tmpdir(), "log-file-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps this run's readable lines, redacted, and the previous run's beside them", () => {
    const path = join(dir, "logs", "hub.log");
    for (const run of ["first", "second"]) {
      const file = logFileDestination({ path, server: "hub" });
      const log = createLogger({ name: "hub", level: "info", destination: file });
      log.child({ component: "auth" }).warn({ password: "hunter2", user: "anna" }, `${run} run`);
      log.debug("not emitted at info");
      file.close();
    }
    const current = readFileSync(path, "utf8");
    assert.match(
      current,
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN {2}hub \[auth\] second run password=\[redacted\] user=anna\n$/,
    );
    assert.match(readFileSync(previousLogFile(path), "utf8"), / first run /);
    assert.ok(!`${current}${readFileSync(previousLogFile(path), "utf8")}`.includes("hunter2"));
    assert.equal(previousLogFile(path), join(dir, "logs", "hub.previous.log"));
  });

  it("stops at its size limit with a line saying where the rest is", () => {
    const path = join(dir, "capped.log");
    const file = logFileDestination({ path, server: "portal", maxBytes: 300 });
    const log = createLogger({ name: "portal", level: "info", destination: file });
    for (let i = 0; i < 20; i++) log.info({ i }, "a line of about sixty bytes");
    file.close();
    const text = readFileSync(path, "utf8");
    assert.ok(Buffer.byteLength(text) < 300 + 120, `${Buffer.byteLength(text)} bytes`);
    assert.match(text, /\[log file full at 300 bytes; the rest of this run is in the add-on's Log tab\]\n$/);
    // Whole lines only, up to the limit.
    assert.ok(
      text
        .split("\n")
        .slice(0, -2)
        .every((line) => / INFO {2}portal a line of about sixty bytes i=\d+$/.test(line)),
      text,
    );
  });

  it("ends quietly when the file cannot be written any more", () => {
    const sub = join(dir, "gone");
    const file = logFileDestination({ path: join(sub, "hub.log"), server: "hub" });
    file.close();
    const log = createLogger({ name: "hub", level: "info", destination: file });
    assert.doesNotThrow(() => log.error("after close"));
    assert.ok(existsSync(join(sub, "hub.log")));
  });
});
