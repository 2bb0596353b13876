import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createLogger, type Logger } from "../logger.ts";

/** A real pino logger writing into memory, so tests can assert what was (and was not) logged. */
export function memoryLogger(level: "trace" | "debug" | "info" = "debug"): { log: Logger; lines: () => string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { log: createLogger({ name: "test", level, destination }), lines: () => lines };
}

/** A fresh temporary folder and a function that removes it. */
export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
