import type { DestinationStream } from "pino";

/**
 * How a server writes its log to stdout: `pretty` (the default) for people (a terminal, the add-on's Log tab),
 * `json` (one pino object per line) for log shippers. `/api/logs` and tests always get the JSON objects.
 */
export const LOG_FORMATS = ["pretty", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Fields every line carries that say nothing about the line, or that the line's head shows already. */
const HEAD_FIELDS = new Set(["time", "level", "msg", "component", "facility", "pid", "hostname", "demo", "err"]);
const LEVEL_COLOURS: Record<string, string> = {
  trace: "90",
  debug: "36",
  info: "32",
  warn: "33",
  error: "31",
  fatal: "35",
};
const NUMERIC_LEVELS: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
/** Continuation lines (a multi-line message, a stack) are indented: a forged "line" in a message cannot pass as one. */
const INDENT = "    ";
/**
 * Control characters other than newline and tab, escaped so that nothing a log line quotes (an entity name, a
 * plugin's message) can move the cursor, recolour the terminal or clear the screen.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const escapeControls = (text: string) =>
  text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** `2026-11-27 14:03:05.123` in the process's time zone (the add-on gets Home Assistant's as TZ). */
function localTime(value: unknown): string {
  const date = new Date(typeof value === "number" || typeof value === "string" ? value : Date.now());
  if (Number.isNaN(date.getTime())) return String(value);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  );
}

/** A field value on one line: plain when that is unambiguous, else JSON (quotes, escaped newlines). */
function fieldValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=\\]+$/.test(value) ? escapeControls(value) : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return escapeControls(JSON.stringify(value) ?? String(value));
}

/** The lines of pino's serialised `err` ({type, message, stack}): the stack when there is one, else the message. */
function errorLines(err: unknown): string[] {
  if (err === null || typeof err !== "object") return err === undefined ? [] : [`err=${fieldValue(err)}`];
  const { stack, message, type } = err as { stack?: unknown; message?: unknown; type?: unknown };
  if (typeof stack === "string" && stack !== "") return stack.split("\n");
  return [`${typeof type === "string" ? type : "Error"}: ${typeof message === "string" ? message : fieldValue(err)}`];
}

export interface PrettyOptions {
  /** ANSI colours for the level (a terminal only: the add-on's Log tab and files get plain text). */
  colours?: boolean;
  /**
   * The server writing (pino's `name`: `hub`, `portal`), shown in each line's head: both share the add-on's log.
   * A `name` field with this value is pino's and left out; another `name` (a bridge's, logged as context) is shown.
   */
  server?: string;
}

/**
 * One log object as a readable line: `time LEVEL server [component/facility] message key=value ...`. A message of several
 * lines (a tree, a table) keeps its real line breaks, its other lines indented; an error's stack follows the same
 * way. It formats the object pino already serialised, so what redaction removed stays removed.
 */
export function formatLogRecord(record: Record<string, unknown>, options: PrettyOptions = {}): string {
  const level = typeof record.level === "number" ? (NUMERIC_LEVELS[record.level] ?? "info") : String(record.level ?? "info");
  const label = level.toUpperCase().padEnd(5);
  const head = [localTime(record.time), options.colours ? `\u001b[${LEVEL_COLOURS[level] ?? "0"}m${label}\u001b[0m` : label];
  if (options.server !== undefined) head.push(options.server);
  const source = [record.component, record.facility].filter((part) => typeof part === "string" && part !== "");
  if (source.length > 0) head.push(`[${escapeControls(source.join("/"))}]`);
  const [first = "", ...rest] = escapeControls(typeof record.msg === "string" ? record.msg : "").split("\n");
  if (first !== "") head.push(first);
  for (const [key, value] of Object.entries(record)) {
    if (HEAD_FIELDS.has(key) || value === undefined || (key === "name" && value === options.server)) continue;
    head.push(`${escapeControls(key)}=${fieldValue(value)}`);
  }
  const more = [...rest, ...errorLines(record.err).map(escapeControls)];
  return [head.join(" "), ...more.map((line) => `${INDENT}${line}`)].join("\n");
}

/** Formats one serialised pino line; a line that is not a JSON object is passed on unchanged. */
export function formatLogLine(line: string, options: PrettyOptions = {}): string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return line.endsWith("\n") ? line.slice(0, -1) : line;
  }
  if (record === null || typeof record !== "object" || Array.isArray(record)) return line.trimEnd();
  return formatLogRecord(record as Record<string, unknown>, options);
}

/**
 * A pino destination that writes readable lines to `target` (stdout). Formatting happens in this process, in the
 * call that logs: one JSON.parse per emitted line, no worker thread. `flush` reaches the target, so a shutdown flush
 * still empties stdout's buffer.
 */
export function prettyDestination(target: DestinationStream, options: PrettyOptions = {}): DestinationStream {
  const flushable = target as DestinationStream & { flush?: (callback: (error?: Error) => void) => void };
  return Object.assign(
    {
      write(line: string) {
        target.write(`${formatLogLine(line, options)}\n`);
      },
    },
    typeof flushable.flush === "function" ? { flush: (callback: (error?: Error) => void) => flushable.flush?.(callback) } : {},
  );
}

/** Colours on a terminal unless NO_COLOR is set (https://no-color.org). */
export function wantsColours(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? "") === "";
}
