import { type Diagnostic, LogDestination, LogFormat, Logger, LogLevel } from "@matter/main";
import type { Logger as PinoLogger } from "../../../lib/logger.ts";

/** matter.js level names, most verbose first. */
export const MATTER_LOG_LEVELS = ["debug", "info", "notice", "warn", "error", "fatal"] as const;
export type MatterLogLevel = (typeof MATTER_LOG_LEVELS)[number];

type PinoMethod = "trace" | "debug" | "info" | "warn" | "error" | "fatal";

/**
 * matter.js level → pino level. matter.js logs every session and exchange at INFO and the interesting lifecycle
 * lines ("is online", pairing codes) at NOTICE, so each matter.js level lands one step lower in pino: a hub at
 * `info` shows matter.js NOTICE and above, `debug` adds matter.js INFO, `trace` everything.
 */
const PINO_METHOD: Record<MatterLogLevel, PinoMethod> = {
  debug: "trace",
  info: "debug",
  notice: "info",
  warn: "warn",
  error: "error",
  fatal: "fatal",
};

/**
 * matter.js logging is process-global (`Logger.destinations`), not per Environment, so this is the one piece of
 * module state here: how many forwarders are installed. Each open environment adds its own destination, and since
 * a matter.js line does not say which environment wrote it, every forwarder receives every line (a hub process
 * has exactly one environment; tests may have several). While any is installed, matter.js's console destination
 * is removed; it comes back when the last one goes, so a process without hub environments behaves as stock.
 */
let installed = 0;
let nextId = 1;
let savedConsole: LogDestination | undefined;

/** The matter.js level whose pino mapping is the least verbose level the pino logger still emits. */
export function matterLevelFor(log: PinoLogger): MatterLogLevel {
  return MATTER_LOG_LEVELS.find((level) => log.isLevelEnabled(PINO_METHOD[level])) ?? "fatal";
}

/**
 * Secrets matter.js may put in a line: a DoorLock PIN in command payloads (`pinCode`, `credentialData`), and a
 * node's pairing codes (`passcode`, the manual code, the `MT:` QR payload and the QR code drawn in block
 * characters). HubCommissioningServer already keeps matter.js from announcing the codes; this catches any other
 * line, at any level.
 */
const SECRET_FIELDS =
  /\b(pinCode|credentialData|passcode|manual pairing code|manualPairingCode|qrPairingCode)(: )("[^"]*"|\S+)/gi;
const QR_PAYLOAD = /\bMT:[0-9A-Z.-]+/g;
const QR_ART = /[\u2580-\u259F\u2800][\s\u2580-\u259F\u2800]*[\u2580-\u259F\u2800]/g;

/** Renders the message body only: pino adds its own time, level and our `facility` field. */
export function render(message: Pick<Diagnostic.Message, "prefix" | "values">): string {
  const text = LogFormat.formats.plain?.(message.values) ?? message.values.map(String).join(" ");
  // Nothing secret may reach the add-on log or /api/logs (docs/SECURITY.md).
  return `${message.prefix}${text}`
    .replace(SECRET_FIELDS, "$1$2[redacted]")
    .replace(QR_PAYLOAD, "MT:[redacted]")
    .replace(QR_ART, "[QR code redacted]");
}

/**
 * Routes matter.js logs into `log` until the returned function is called. `level` is the matter.js threshold;
 * by default the one matching the pino logger's own level, so nothing is formatted only to be dropped by pino.
 */
export function forwardMatterLogs(log: PinoLogger, level: MatterLogLevel = matterLevelFor(log)): () => void {
  if (installed === 0 && "default" in Logger.destinations) {
    savedConsole = Logger.destinations.default;
    delete Logger.destinations.default;
  }
  installed++;
  const name = `matter-hub-pino-${nextId++}`;
  Logger.destinations[name] = LogDestination({
    name,
    level: LogLevel(level),
    add(message: Diagnostic.Message) {
      const method = PINO_METHOD[MATTER_LOG_LEVELS[message.level] ?? "info"];
      log[method]({ facility: message.facility }, render(message));
    },
  });
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    delete Logger.destinations[name];
    installed--;
    if (installed === 0 && savedConsole) {
      Logger.destinations.default = savedConsole;
      savedConsole = undefined;
    }
  };
}
