/**
 * Climate ↔ Matter Thermostat mode and setpoint rules (research complaint #11).
 *
 * HA `heat_cool` and Matter Auto are the same thing: keep the temperature between two setpoints. HA `auto` is
 * different: the device (or its schedule) decides, often with one setpoint or none. So:
 * - Matter Auto (AutoMode feature) exists only when the entity has `heat_cool`, and writes `heat_cool`.
 * - HA `auto` is read as Heat or Cool, whichever the device is doing (`hvac_action`), Heat when idle on a
 *   heating device. A controller writing Heat to an `auto`-only device (typical radiator valve) gets `auto`.
 * - Modes the entity lacks are refused (CONSTRAINT_ERROR) instead of being sent to HA to fail there.
 */
import { Thermostat } from "@matter/main/clusters/thermostat";
import type { ClimateCapabilities } from "../capabilities.ts";

const Mode = Thermostat.SystemMode;

/** Matter SystemMode for an HA hvac mode (the climate entity's state). */
export function systemModeFromHa(
  hvacMode: string,
  caps: ClimateCapabilities,
  hvacAction: string | undefined,
): Thermostat.SystemMode | undefined {
  switch (hvacMode) {
    case "off":
      return Mode.Off;
    case "heat":
      return Mode.Heat;
    case "cool":
      return Mode.Cool;
    case "heat_cool":
      return caps.autoMode ? Mode.Auto : caps.heating ? Mode.Heat : Mode.Cool;
    case "auto":
      if (caps.cooling && (hvacAction === "cooling" || !caps.heating)) return Mode.Cool;
      return Mode.Heat;
    case "dry":
      return Mode.Dry;
    case "fan_only":
      return Mode.FanOnly;
    default:
      return undefined;
  }
}

/** HA modes that may carry out a Matter SystemMode, best first. */
const CANDIDATES: Partial<Record<Thermostat.SystemMode, readonly string[]>> = {
  [Mode.Off]: ["off"],
  [Mode.Heat]: ["heat", "auto", "heat_cool"],
  [Mode.EmergencyHeat]: ["heat"],
  [Mode.Cool]: ["cool", "auto", "heat_cool"],
  [Mode.Precooling]: ["cool"],
  [Mode.Auto]: ["heat_cool"],
  [Mode.FanOnly]: ["fan_only"],
  [Mode.Dry]: ["dry"],
};

/** The HA hvac mode for a written SystemMode, or undefined when the entity cannot do it. */
export function haModeForSystemMode(mode: Thermostat.SystemMode, modes: readonly string[]): string | undefined {
  return CANDIDATES[mode]?.find((candidate) => modes.includes(candidate));
}

/** Matter ControlSequenceOfOperation for the entity's heating/cooling abilities. */
export function controlSequenceFor(caps: ClimateCapabilities): Thermostat.ControlSequenceOfOperation {
  if (caps.heating && caps.cooling) return Thermostat.ControlSequenceOfOperation.CoolingAndHeating;
  return caps.cooling ? Thermostat.ControlSequenceOfOperation.CoolingOnly : Thermostat.ControlSequenceOfOperation.HeatingOnly;
}

/** Matter ThermostatRunningState from HA `hvac_action`. */
export function runningStateFor(hvacAction: string | undefined): { heat: boolean; cool: boolean; fan: boolean } {
  return { heat: hvacAction === "heating", cool: hvacAction === "cooling", fan: hvacAction === "fan" };
}

/** Setpoints as the controller left them after a write (hundredths of °C). */
export interface SetpointWrite {
  heating?: number | undefined;
  cooling?: number | undefined;
  /** The HA mode written in the same request, if any. */
  hvacMode?: string | undefined;
}

/**
 * The `climate.set_temperature` data for a setpoint write. `range` is true when the entity takes two setpoints in
 * the mode it will be in (heat_cool); both bounds are then sent, the unwritten one from the current state, because
 * HA requires `target_temp_low` and `target_temp_high` together. A single-setpoint entity takes the written one,
 * the cooling setpoint when in a cooling mode and both were written.
 */
export function setTemperatureData(
  write: SetpointWrite,
  current: { heating: number; cooling: number },
  range: boolean,
  cooling: boolean,
  toHa: (centiCelsius: number) => number,
): Record<string, unknown> {
  const mode = write.hvacMode !== undefined ? { hvac_mode: write.hvacMode } : {};
  if (range) {
    return {
      ...mode,
      target_temp_low: toHa(write.heating ?? current.heating),
      target_temp_high: toHa(write.cooling ?? current.cooling),
    };
  }
  const chosen =
    write.heating !== undefined && write.cooling !== undefined
      ? cooling
        ? write.cooling
        : write.heating
      : (write.heating ?? write.cooling ?? current.heating);
  return { ...mode, temperature: toHa(chosen) };
}
