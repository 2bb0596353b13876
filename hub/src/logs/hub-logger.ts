import type { DestinationStream } from "pino";
import { logFileDestination } from "../../../lib/log-file.ts";
import type { LogFormat } from "../../../lib/log-format.ts";
import { prettyDestination } from "../../../lib/log-format.ts";
import {
  combineDestinations,
  createLogger,
  LOG_LEVELS,
  type Logger,
  type LogLevel,
  stdoutDestination,
} from "../../../lib/logger.ts";
import type { LogRecord, LogRing } from "./log-ring.ts";

/** Longer lines are stored shortened, so the ring is bounded in bytes as well as in entries. */
export const MAX_STORED_LINE_CHARS = 8192;
const MAX_SHORTENED_MSG_CHARS = 2048;

/** pino's numeric levels, for lines written without the level-label formatter. */
const NUMERIC_LEVELS: Record<number, LogLevel> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
/** Fields every line of this process carries; they say nothing about the line itself. */
const DROPPED_FIELDS = new Set(["name", "pid", "hostname"]);

function toLevel(value: unknown): LogLevel | undefined {
  if (typeof value === "number") return NUMERIC_LEVELS[value];
  return LOG_LEVELS.find((level) => level === value);
}

/** Turns one serialised pino line (already redacted) into a ring entry; `undefined` for anything unparsable. */
export function parseLogLine(line: string): LogRecord | undefined {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== "object") return undefined;
  const { level, time, msg, component, ...rest } = raw;
  const parsedLevel = toLevel(level);
  if (!parsedLevel) return undefined;
  const entry: LogRecord = {
    time: typeof time === "number" ? new Date(time).toISOString() : String(time ?? new Date().toISOString()),
    level: parsedLevel,
    msg: typeof msg === "string" ? msg : "",
  };
  if (typeof component === "string") entry.component = component;
  if (line.length > MAX_STORED_LINE_CHARS) {
    entry.msg = entry.msg.slice(0, MAX_SHORTENED_MSG_CHARS);
    entry.truncated = true;
    return entry;
  }
  for (const [key, value] of Object.entries(rest)) if (!DROPPED_FIELDS.has(key)) entry[key] = value;
  return entry;
}

/**
 * A pino destination that appends every line to the ring. It receives the serialised line, i.e. after pino's
 * redaction, so a secret redacted for stdout is redacted here too.
 */
export function createLogRingDestination(ring: LogRing): DestinationStream {
  return {
    write(line: string) {
      const entry = parseLogLine(line);
      if (entry) ring.append(entry);
    },
  };
}

export interface HubLoggerOptions {
  level: LogLevel;
  ring: LogRing;
  /** Fields added to every line, e.g. `{demo: true}`. */
  base?: Record<string, unknown>;
  /** Where the add-on log goes; stdout (asynchronous, flushed on exit) when absent. Tests pass a memory stream. */
  stdout?: DestinationStream;
  /** How `stdout` gets the lines: readable (lib/log-format.ts) or JSON (the default here; main.ts passes the config's). */
  format?: LogFormat;
  /** HUB_LOG_FILE: also keep the lines in this file, readable (lib/log-file.ts). */
  file?: string | undefined;
}

/**
 * The hub's root logger: lib/logger.ts's `createLogger` (same name, timestamps, level labels and the redaction of
 * REDACTED_KEYS) writing to stdout (readable or JSON), to the in-memory ring behind `/api/logs` (always the
 * structured objects) and, when configured, to a log file (readable, lib/log-file.ts). Both streams take every level the logger emits; the logger's own level decides what is
 * emitted at all. Both get the line pino serialised, after redaction.
 */
export function createHubLogger(options: HubLoggerOptions): Logger {
  const format = options.format ?? "json";
  const stdout = options.stdout
    ? format === "pretty"
      ? prettyDestination(options.stdout, { server: "hub" })
      : options.stdout
    : stdoutDestination(format, "hub");
  const streams = [stdout, createLogRingDestination(options.ring)];
  if (options.file !== undefined) streams.push(logFileDestination({ path: options.file, server: "hub" }));
  return createLogger({ name: "hub", level: options.level, base: options.base, destination: combineDestinations(streams) });
}
