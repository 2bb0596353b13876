import * as v from "valibot";
import type { Logger } from "../../../lib/logger.ts";
import { describeIssues } from "../../../lib/validate.ts";
import type { SettingsFile } from "./settings-file.ts";

/** Limits of `recoveryIntervalMs` (hub spec, Limits). */
export const MIN_RECOVERY_INTERVAL_MS = 10_000;
export const MAX_RECOVERY_INTERVAL_MS = 3_600_000;

const intervalMessage = `must be an integer between ${MIN_RECOVERY_INTERVAL_MS} and ${MAX_RECOVERY_INTERVAL_MS}`;

/** `PUT /api/settings/recovery` and the stored `recovery` key: both fields are required. */
export const RecoverySettingsSchema = v.object({
  autoRecoveryEnabled: v.boolean("must be true or false"),
  recoveryIntervalMs: v.pipe(
    v.number(intervalMessage),
    v.integer(intervalMessage),
    v.minValue(MIN_RECOVERY_INTERVAL_MS, intervalMessage),
    v.maxValue(MAX_RECOVERY_INTERVAL_MS, intervalMessage),
  ),
});
export type RecoverySettings = v.InferOutput<typeof RecoverySettingsSchema>;

export const DEFAULT_RECOVERY_SETTINGS: Readonly<RecoverySettings> = Object.freeze({
  autoRecoveryEnabled: true,
  recoveryIntervalMs: 60_000,
});

/** The key of the recovery settings in `settings.json`. */
export const RECOVERY_KEY = "recovery";

/**
 * Reads the stored recovery settings. Absent: the defaults. Present but invalid (edited by hand): the defaults with
 * a warning, and the file is left as it is until the next save, so nothing is lost silently.
 */
export async function loadRecoverySettings(file: SettingsFile, log: Logger): Promise<RecoverySettings> {
  const stored = await file.read(RECOVERY_KEY);
  if (stored === undefined) return { ...DEFAULT_RECOVERY_SETTINGS };
  const parsed = v.safeParse(RecoverySettingsSchema, stored);
  if (parsed.success) return parsed.output;
  log.warn(
    { problem: describeIssues(parsed.issues) },
    `${file.path}: the "${RECOVERY_KEY}" settings are invalid; using the defaults until they are saved again`,
  );
  return { ...DEFAULT_RECOVERY_SETTINGS };
}
