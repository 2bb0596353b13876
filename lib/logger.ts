import { type DestinationStream, type LevelWithSilent, type Logger, pino } from "pino";
import { logFileDestination } from "./log-file.ts";
import { type LogFormat, prettyDestination, wantsColours } from "./log-format.ts";

export type { Logger } from "pino";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Keys whose values never reach a log line, wherever they appear in a logged object. Secrets (HA token,
 * admin and bot tokens, passwords, PINs) are redacted by pino before serialisation.
 */
export const REDACTED_KEYS = [
  "token",
  "accessToken",
  "access_token",
  "adminToken",
  "password",
  "pin",
  "pinCode",
  "secret",
  "authorization",
  "cookie",
];

export interface LoggerOptions {
  name: string;
  level: LogLevel | LevelWithSilent;
  /** Extra destination (tests, the hub's in-memory ring); stdout in `format` when absent. */
  destination?: DestinationStream;
  /** How stdout gets the lines when `destination` is absent (lib/log-format.ts); JSON by default. */
  format?: LogFormat;
  /** Also keep the lines in this file (lib/log-file.ts), readable; with `destination` absent only. */
  file?: string | undefined;
  /** Fields added to every line, e.g. `{demo: true}`. */
  base?: Record<string, unknown>;
}

/**
 * The process's stdout as a pino destination (asynchronous, flushed on exit): JSON lines, or readable ones with
 * colours on a terminal.
 */
export function stdoutDestination(format: LogFormat, server: string): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false });
  if (format === "json") return stdout;
  return prettyDestination(stdout, { server, colours: wantsColours(process.stdout, process.env) });
}

/**
 * Several destinations as one, every level to each (the logger's level decides what is emitted); `flush` reaches the
 * first (stdout), which is the only buffered one.
 */
export function combineDestinations(streams: DestinationStream[]): DestinationStream {
  const first = streams[0] as DestinationStream & { flush?: (callback: (error?: Error) => void) => void };
  const combined = pino.multistream(streams.map((stream) => ({ level: "trace" as const, stream })));
  // multistream has no `flush`, so `log.flush()` at shutdown would skip the buffered stdout without this.
  return Object.assign(combined, {
    flush(callback: (error?: Error) => void) {
      if (typeof first.flush === "function") first.flush(callback);
      else callback();
    },
  });
}

/** stdout, plus the log file when one is configured. */
function defaultDestination(options: LoggerOptions): DestinationStream {
  const stdout = stdoutDestination(options.format ?? "json", options.name);
  if (options.file === undefined) return stdout;
  return combineDestinations([stdout, logFileDestination({ path: options.file, server: options.name })]);
}

/** Builds the process' root logger; everything else gets children of it through the context. */
export function createLogger(options: LoggerOptions): Logger {
  const paths = REDACTED_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);
  return pino(
    {
      name: options.name,
      level: options.level,
      base: { ...options.base },
      redact: { paths, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? defaultDestination(options),
  );
}
