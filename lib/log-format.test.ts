import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatLogLine, formatLogRecord, prettyDestination, wantsColours } from "./log-format.ts";
import { createLogger } from "./logger.ts";

// The formatter prints the process's local time; pin the zone so the expected strings hold on any machine.
process.env.TZ = "UTC";

/** A logger whose stdout is the readable format, captured. */
function prettyLogger() {
  const out: string[] = [];
  const log = createLogger({
    name: "hub",
    level: "debug",
    base: { demo: true },
    destination: prettyDestination({ write: (text: string) => void out.push(text) }, { server: "hub" }),
  });
  return { log, text: () => out.join("") };
}

describe("readable log lines", () => {
  it("formats typical lines: time, level, component, message, key fields", () => {
    const { log, text } = prettyLogger();
    const http = log.child({ component: "http" });
    http.info({ method: "POST", path: "/api/matter/bridges", status: 401, ms: 3 }, "request refused");
    // A context field called `name` (a bridge's) is shown; pino's own `name` (the server) heads the line instead.
    log.child({ component: "matter" }).warn({ bridgeId: "b1", name: "Living room" }, "bridge restarted");
    log.info({ version: "0.1.0", dataDir: "/data/hub" }, "Matter Hub 0.1.0 started");
    const lines = text().trimEnd().split("\n");
    assert.equal(lines.length, 3);
    assert.match(
      lines[0] ?? "",
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO {2}hub \[http\] request refused method=POST path=\/api\/matter\/bridges status=401 ms=3$/,
    );
    assert.match(lines[1] ?? "", / WARN {2}hub \[matter\] bridge restarted name="Living room" bridgeId=b1$/);
    assert.match(lines[2] ?? "", / INFO {2}hub Matter Hub 0\.1\.0 started version=0\.1\.0 dataDir=\/data\/hub$/);
    assert.ok(!/pid=|hostname=|demo=|name=hub/.test(text()), text());
  });

  it("shows the time in the process's zone, levels from pino's numbers too", () => {
    const line = formatLogRecord({ time: "2026-11-27T14:03:05.123Z", level: 50, msg: "boom", component: "backup" });
    assert.equal(line, "2026-11-27 14:03:05.123 ERROR [backup] boom");
    const matter = formatLogRecord({ time: 0, level: "debug", msg: "session opened", component: "matter", facility: "Session" });
    assert.equal(matter, "1970-01-01 00:00:00.000 DEBUG [matter/Session] session opened");
  });

  it("draws a message of several lines with real line breaks, the others indented", () => {
    const tree = "Endpoints\n  aggregator\n    light-1 OnOff\n    light-2 OnOff";
    const line = formatLogRecord({ time: 0, level: "info", msg: tree, component: "matter", bridgeId: "b1" });
    assert.equal(
      line,
      [
        "1970-01-01 00:00:00.000 INFO  [matter] Endpoints bridgeId=b1",
        "      aggregator",
        "        light-1 OnOff",
        "        light-2 OnOff",
      ].join("\n"),
    );
  });

  it("prints an error's stack under the line, and keeps values with spaces or line breaks on one line", () => {
    const { log, text } = prettyLogger();
    const error = new Error("disk full");
    log.error({ err: error, file: "a b.json", note: "one\ntwo" }, "could not save");
    const [head, ...rest] = text().trimEnd().split("\n");
    assert.match(head ?? "", /ERROR hub could not save file="a b\.json" note="one\\ntwo"$/);
    assert.equal(rest[0], "    Error: disk full");
    assert.match(rest[1] ?? "", /^ {4} {4}at /);
  });

  it("cannot be made to forge a line or move the terminal's cursor", () => {
    const line = formatLogRecord({
      time: 0,
      level: "info",
      msg: "entity renamed\n1970-01-01 00:00:00.000 ERROR [auth] fake\u001b[2J",
      name: "x\u001b[31m",
    });
    assert.ok(!line.includes("\u001b"), line);
    assert.match(line, /\\u001b\[2J/);
    // The forged "line" is indented under the real one: it cannot pass for a line of its own.
    assert.equal(line.split("\n")[1], "    1970-01-01 00:00:00.000 ERROR [auth] fake\\u001b[2J");
  });

  it("keeps redacted fields redacted", () => {
    const { log, text } = prettyLogger();
    log.info({ password: "hunter2", nested: { token: "abc123" }, authorization: "Basic eDp5" }, "settings saved");
    assert.ok(!/hunter2|abc123|eDp5/.test(text()), text());
    assert.match(text(), /password=\[redacted\] nested=\{"token":"\[redacted\]"\} authorization=\[redacted\]/);
  });

  it("colours the level only when asked, and on a terminal only without NO_COLOR", () => {
    const coloured = formatLogRecord({ time: 0, level: "warn", msg: "careful" }, { colours: true });
    assert.equal(coloured, "1970-01-01 00:00:00.000 \u001b[33mWARN \u001b[0m careful");
    assert.equal(wantsColours({ isTTY: true }, {}), true);
    assert.equal(wantsColours({ isTTY: true }, { NO_COLOR: "1" }), false);
    assert.equal(wantsColours({ isTTY: false }, {}), false);
    assert.equal(wantsColours({}, {}), false);
  });

  it("passes a line that is not a JSON object on unchanged", () => {
    assert.equal(formatLogLine("plain text\n"), "plain text");
    assert.equal(formatLogLine("[1,2]"), "[1,2]");
  });
});
