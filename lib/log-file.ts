import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { DestinationStream } from "pino";
import { formatLogLine } from "./log-format.ts";

/** One run's file stops growing here: the Log tab has the rest, and a runaway debug log cannot fill the disk. */
export const LOG_FILE_MAX_BYTES = 5 * 1024 * 1024;

export interface LogFileOptions {
  /** e.g. `/config/logs/hub.log` in the add-on (HUB_LOG_FILE, PORTAL_LOG_FILE). */
  path: string;
  /** The server's name in each line's head (log-format.ts). */
  server: string;
  maxBytes?: number;
}

/** `hub.log` → `hub.previous.log`. */
export const previousLogFile = (path: string) =>
  path.endsWith(".log") ? `${path.slice(0, -4)}.previous.log` : `${path}.previous`;

/**
 * A pino destination that keeps this run's log in a file, in the readable format, for people to read after the
 * add-on restarted (the Log tab shows only the running container's output): the previous run's file is kept
 * beside it as `*.previous.log`, older ones are dropped. The file is capped at `maxBytes` per run, with a last
 * line saying so. Writes are synchronous (a line at a time, after redaction like every other stream); a write that
 * fails (disk full, folder gone) ends the file quietly rather than the server.
 */
export function logFileDestination(options: LogFileOptions): DestinationStream & { close(): void } {
  const maxBytes = options.maxBytes ?? LOG_FILE_MAX_BYTES;
  mkdirSync(dirname(options.path), { recursive: true });
  if (existsSync(options.path)) renameSync(options.path, previousLogFile(options.path));
  let fd: number | undefined = openSync(options.path, "a", 0o644);
  let written = 0;
  const stop = () => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // Already gone: nothing to keep.
    }
    fd = undefined;
  };
  return {
    write(line: string) {
      if (fd === undefined) return;
      const text = `${formatLogLine(line, { server: options.server })}\n`;
      const bytes = Buffer.byteLength(text);
      try {
        if (written + bytes > maxBytes) {
          writeSync(fd, `[log file full at ${maxBytes} bytes; the rest of this run is in the add-on's Log tab]\n`);
          stop();
          return;
        }
        writeSync(fd, text);
        written += bytes;
      } catch {
        stop();
      }
    },
    close: stop,
  };
}
