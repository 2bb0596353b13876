/**
 * The cloud's daily request quota and the poll interval it allows (docs/plugins.md "Appliance cloud plugin"): the
 * account may make 3200 requests a day plus 1500 per device on it. One poll cycle costs one device-list request
 * plus one status request per switched-on device, so the interval is raised until a day of polling fits:
 *
 *   minimum interval = ceil(86400 s × (1 + switched-on devices) / (3200 + 1500 × devices on the account))
 *
 * The quota is shared with everything else on the account (the vendor's app included), so the raised interval is
 * a ceiling on this plugin's share, not a guarantee.
 */

export const QUOTA_BASE = 3200;
export const QUOTA_PER_DEVICE = 1500;
export const POLL_MIN_SECONDS = 30;
export const POLL_MAX_SECONDS = 3600;
export const POLL_DEFAULT_SECONDS = 60;
const DAY_SECONDS = 86_400;

/** Requests a day the account may make. */
export function dailyQuota(devicesOnAccount: number): number {
  return QUOTA_BASE + QUOTA_PER_DEVICE * Math.max(0, devicesOnAccount);
}

/** Requests a day polling every `intervalSeconds` costs. */
export function dailyRequests(intervalSeconds: number, switchedOnDevices: number): number {
  return Math.ceil(DAY_SECONDS / intervalSeconds) * (1 + switchedOnDevices);
}

export interface PollPlan {
  /** The interval used, in seconds. */
  interval: number;
  /** The configured value (clamped to 30 … 3600). */
  configured: number;
  /** The smallest interval the quota allows. */
  minimum: number;
  raised: boolean;
  quota: number;
}

/** The poll interval to use for a configured one, given the account's devices and the switched-on ones. */
export function pollPlan(configuredSeconds: unknown, devicesOnAccount: number, switchedOnDevices: number): PollPlan {
  const asNumber =
    typeof configuredSeconds === "number" && Number.isFinite(configuredSeconds) ? configuredSeconds : POLL_DEFAULT_SECONDS;
  const configured = Math.min(POLL_MAX_SECONDS, Math.max(POLL_MIN_SECONDS, Math.round(asNumber)));
  const quota = dailyQuota(devicesOnAccount);
  const minimum = Math.ceil((DAY_SECONDS * (1 + switchedOnDevices)) / quota);
  const interval = Math.min(POLL_MAX_SECONDS, Math.max(configured, minimum));
  return { interval, configured, minimum, raised: interval > configured, quota };
}
