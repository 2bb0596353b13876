/**
 * Composed devices in the device list: what an endpoint carries from its companion entities ("+ battery 84 %,
 * 120 W, 3.4 kWh"), and the rows of those companions placed right under the endpoint they are part of.
 */

import { currentLanguage } from "../../../common/i18n.ts";
import type { BridgeDeviceInfo, CarriedPart, CompanionRole } from "../api/types.ts";
import { S } from "../strings.ts";

/** The order the parts are listed in: battery first, then the measurements. */
const ORDER: readonly CompanionRole[] = ["battery", "battery_low", "battery_charging", "power", "energy", "voltage", "current"];

/**
 * A reading with as many decimals as it needs to be read at a glance: 1,234 W, 48.2 kWh, 0.74 A. In the browser's
 * locale (`locale` is for tests).
 */
export function formatReading(value: number, locale?: string): string {
  const magnitude = Math.abs(value);
  const decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return value.toLocaleString(locale ?? currentLanguage(), { maximumFractionDigits: decimals });
}

/** One number with HA's unit ("84 %", "120 W"), or "—" when the value is unknown. */
export function formatMeasure(value: number | boolean | null, unit: string | null, locale?: string): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return S.carried.unknown;
  return unit ? `${formatReading(value, locale)} ${unit}` : formatReading(value, locale);
}

/** One part as the list shows it: "battery 84 %", "battery low", "charging", "120 W", "power —". */
export function partText(part: CarriedPart, all: readonly CarriedPart[] = [part], locale?: string): string | null {
  switch (part.role) {
    case "battery":
      return S.carried.battery(formatMeasure(part.value, part.unit, locale));
    case "battery_low":
      if (typeof part.value !== "boolean") return S.carried.battery(S.carried.unknown);
      // "battery OK" says nothing the percentage does not already say.
      if (!part.value && all.some((other) => other.role === "battery")) return null;
      return S.carried.batteryLow(part.value);
    case "battery_charging":
      return typeof part.value === "boolean" ? S.carried.charging(part.value) : S.carried.unknownOf(S.carried.charging(true));
    default:
      return typeof part.value === "number" && Number.isFinite(part.value)
        ? formatMeasure(part.value, part.unit, locale)
        : S.carried.unknownOf(part.role);
  }
}

/** What an endpoint carries, as one line after its type: "+ battery 84 %, 120 W"; null when it carries nothing. */
export function carriedText(parts: readonly CarriedPart[] | undefined, locale?: string): string | null {
  if (!parts || parts.length === 0) return null;
  const sorted = [...parts].sort((a, b) => ORDER.indexOf(a.role) - ORDER.indexOf(b.role));
  const texts = sorted.map((part) => partText(part, parts, locale)).filter((text): text is string => text !== null);
  return texts.length > 0 ? `${S.carried.prefix} ${texts.join(", ")}` : null;
}

/** Where an entity comes in the parts an endpoint carries (role order); unknown ones last. */
function carriedOrder(parts: readonly CarriedPart[] | undefined): (entityId: string) => number {
  const roles = new Map((parts ?? []).map((part) => [part.entityId, ORDER.indexOf(part.role)]));
  return (entityId) => roles.get(entityId) ?? ORDER.length;
}

/**
 * The exposed endpoints, each followed by the entities composed into it (rows whose `composedInto` names it), so
 * a part is listed under its device, in the order of what the endpoint carries. Parts whose endpoint is not among `mains` come last, still marked as parts.
 */
export function withParts(mains: readonly BridgeDeviceInfo[], parts: readonly BridgeDeviceInfo[]): BridgeDeviceInfo[] {
  const byMain = new Map<string, BridgeDeviceInfo[]>();
  for (const part of parts) {
    const key = part.composedInto ?? "";
    const list = byMain.get(key);
    if (list) list.push(part);
    else byMain.set(key, [part]);
  }
  const rows: BridgeDeviceInfo[] = [];
  for (const main of mains) {
    // In the order the endpoint lists what it carries: battery first, then the measurements.
    const order = carriedOrder(main.carries);
    const mine = (byMain.get(main.entityId) ?? []).sort((a, b) => order(a.entityId) - order(b.entityId));
    rows.push(main, ...mine);
    byMain.delete(main.entityId);
  }
  for (const orphans of byMain.values()) rows.push(...orphans);
  return rows;
}
