/**
 * Typed reads of a Home Assistant state object. HA attributes are untyped JSON and integrations disagree on details
 * (numbers as strings, missing lists, `null` while off), so every read here tolerates the wrong shape and returns
 * `undefined` instead of throwing: one odd entity must never break a bridge (research complaint #14).
 */
import type { HassEntity } from "../../home-assistant/types.ts";

/** HA states that carry no value: the device is gone (`unavailable`) or has not reported yet (`unknown`). */
export function hasValue(state: HassEntity | undefined): state is HassEntity {
  return state !== undefined && state.state !== "unavailable" && state.state !== "unknown";
}

/** An attribute as a finite number (numeric strings accepted), else undefined. */
export function numberAttr(state: HassEntity | undefined, name: string): number | undefined {
  return toNumber(state?.attributes[name]);
}

/** A value as a finite number (numeric strings accepted), else undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** An attribute as a non-empty string, else undefined. */
export function stringAttr(state: HassEntity | undefined, name: string): string | undefined {
  const value = state?.attributes[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** An attribute as a boolean, else undefined. */
export function booleanAttr(state: HassEntity | undefined, name: string): boolean | undefined {
  const value = state?.attributes[name];
  return typeof value === "boolean" ? value : undefined;
}

/** An attribute as a list of strings (non-strings dropped); an empty list when absent. */
export function stringListAttr(state: HassEntity | undefined, name: string): string[] {
  const value = state?.attributes[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** An attribute as a list of numbers of an exact length (e.g. `hs_color`), else undefined. */
export function tupleAttr(state: HassEntity | undefined, name: string, length: number): number[] | undefined {
  const value = state?.attributes[name];
  if (!Array.isArray(value) || value.length !== length) return undefined;
  const numbers = value.map(toNumber);
  return numbers.every((item) => item !== undefined) ? (numbers as number[]) : undefined;
}

/** `supported_features` as a bit mask (0 when absent). */
export function supportedFeatures(state: HassEntity | undefined): number {
  const value = numberAttr(state, "supported_features");
  return value === undefined ? 0 : Math.trunc(value);
}

/** True when every bit of `feature` is set in `supported_features`. */
export function supports(state: HassEntity | undefined, feature: number): boolean {
  return (supportedFeatures(state) & feature) === feature;
}

/** The entity's device class from its state attributes, if any. */
export function deviceClass(state: HassEntity | undefined): string | undefined {
  return stringAttr(state, "device_class");
}

/** The entity's unit of measurement, if any. */
export function unitOf(state: HassEntity | undefined): string | undefined {
  return stringAttr(state, "unit_of_measurement");
}

/** The numeric value of a sensor state, else undefined (`unknown`, `unavailable`, text states). */
export function numericState(state: HassEntity | undefined): number | undefined {
  return hasValue(state) ? toNumber(state.state) : undefined;
}
