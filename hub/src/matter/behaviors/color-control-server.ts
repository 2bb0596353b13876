/**
 * ColorControl → `light.turn_on` with `hs_color`, `xy_color` or `color_temp_kelvin`. matter.js's command methods
 * keep their input checks, ExecuteIfOff handling and ColorMode switching; the *Logic methods (local transitions)
 * are replaced by one HA call per command. On an off light (ExecuteIfOff) the colour is staged for the next On; with
 * an On or MoveToLevelWithOnOff arriving in the same event-loop turn it joins that command's `light.turn_on`.
 *
 * Extended Color Light must carry XY and CT (Device Library §4.4), even for an HA light that only knows hs: HA
 * converts `xy_color` and `color_temp_kelvin` for such lights itself. Continuous hue/saturation/xy moves have no HA
 * equivalent and answer UNSUPPORTED_COMMAND; controllers use the MoveTo* commands.
 */
import { ColorControlBaseServer, ColorControlServer } from "@matter/main/behaviors/color-control";
import { OnOffServer } from "@matter/main/behaviors/on-off";
import { ColorControl } from "@matter/main/clusters/color-control";
import {
  colorTempRange,
  hueFromMatter,
  MAX_HUE_SATURATION,
  MAX_XY,
  miredsToKelvin,
  saturationFromMatter,
  xyFromMatter,
} from "../model/convert/light.ts";
import { numberAttr } from "../model/ha-state.ts";
import { runMerging, sendThenCommit } from "./command-merge.ts";
import { type EntityBinding, entityOf, unsupportedCommand } from "./ha-entity-behavior.ts";
import { executesIfOff } from "./level-control-server.ts";
import { type Motion, transitionData, valueAfter } from "./motion.ts";

/**
 * matter.js's command implementations. The featureless ColorControlServer this class extends does not declare the
 * feature commands in its type, so the overrides below reach them through the base prototype.
 */
const BASE = ColorControlBaseServer.prototype;

const COLOR_KEYS = ["hs_color", "xy_color", "color_temp_kelvin"];
const motions = new WeakMap<EntityBinding, Motion>();

/** The feature-dependent attributes; which exist depends on the features the endpoint was built with. */
interface ColorState {
  currentHue: number;
  currentSaturation: number;
  currentX: number;
  currentY: number;
  colorTemperatureMireds: number;
}

type Target = { hue: number; saturation: number } | { x: number; y: number } | { mireds: number };

/** ColorControl whose colour changes are HA calls. */
export class HaColorControlServer extends ColorControlServer {
  moveToHue(request: ColorControl.MoveToHueRequest) {
    return this.#command(0x00, request, BASE.moveToHue, () => ({ hue: request.hue, saturation: this.#color.currentSaturation }));
  }

  moveToSaturation(request: ColorControl.MoveToSaturationRequest) {
    return this.#command(0x03, request, BASE.moveToSaturation, () => ({
      hue: this.#color.currentHue,
      saturation: request.saturation,
    }));
  }

  moveToHueAndSaturation(request: ColorControl.MoveToHueAndSaturationRequest) {
    return this.#command(0x06, request, BASE.moveToHueAndSaturation, () => ({
      hue: request.hue,
      saturation: request.saturation,
    }));
  }

  moveToColor(request: ColorControl.MoveToColorRequest) {
    return this.#command(0x07, request, BASE.moveToColor, () => ({ x: request.colorX, y: request.colorY }));
  }

  moveToColorTemperature(request: ColorControl.MoveToColorTemperatureRequest) {
    return this.#command(0x0a, request, BASE.moveToColorTemperature, () => ({ mireds: request.colorTemperatureMireds }));
  }

  /** Runs matter.js's `implementation` of a MoveTo* command, merging with the light's other commands (command-merge.ts). */
  #command<R extends OptionsRequest>(command: number, request: R, implementation: (request: R) => unknown, target: () => Target) {
    return runMerging(this, ColorControl.Cluster.id, command, () => {
      const next = this.#whileTurningOn(request, target);
      return next === "handled" ? undefined : implementation.call(this, next);
    });
  }

  override moveToHueLogic(hue: number, _direction: ColorControl.Direction, transitionTime: number) {
    return this.#send({ hue, saturation: this.#color.currentSaturation }, transitionTime);
  }

  override moveToSaturationLogic(saturation: number, transitionTime: number) {
    return this.#send({ hue: this.#color.currentHue, saturation }, transitionTime);
  }

  override moveToHueAndSaturationLogic(hue: number, saturation: number, transitionTime: number) {
    return this.#send({ hue, saturation }, transitionTime);
  }

  override stepHueLogic(stepMode: ColorControl.StepMode, stepSize: number, transitionTime: number) {
    const direction = stepMode === ColorControl.StepMode.Up ? 1 : -1;
    const span = MAX_HUE_SATURATION + 1;
    const hue = (((this.#color.currentHue + direction * stepSize) % span) + span) % span;
    return this.#send({ hue, saturation: this.#color.currentSaturation }, transitionTime);
  }

  override stepSaturationLogic(stepMode: ColorControl.StepMode, stepSize: number, transitionTime: number) {
    const direction = stepMode === ColorControl.StepMode.Up ? 1 : -1;
    const saturation = Math.min(MAX_HUE_SATURATION, Math.max(0, this.#color.currentSaturation + direction * stepSize));
    return this.#send({ hue: this.#color.currentHue, saturation }, transitionTime);
  }

  override moveToColorLogic(x: number, y: number, transitionTime: number) {
    return this.#send({ x, y }, transitionTime);
  }

  override stepColorLogic(stepX: number, stepY: number, transitionTime: number) {
    const clampXy = (value: number) => Math.min(MAX_XY, Math.max(0, value));
    return this.#send({ x: clampXy(this.#color.currentX + stepX), y: clampXy(this.#color.currentY + stepY) }, transitionTime);
  }

  override moveToColorTemperatureLogic(mireds: number, transitionTime: number) {
    return this.#send({ mireds }, transitionTime);
  }

  override stepColorTemperatureLogic(
    stepMode: ColorControl.StepMode,
    stepSize: number,
    transitionTime: number,
    minMireds: number,
    maxMireds: number,
  ) {
    const direction = stepMode === ColorControl.StepMode.Up ? 1 : -1;
    const mireds = Math.min(maxMireds, Math.max(minMireds, this.#color.colorTemperatureMireds + direction * stepSize));
    return this.#send({ mireds }, transitionTime);
  }

  override moveColorTemperatureLogic(moveMode: ColorControl.MoveMode, rate: number, minMireds: number, maxMireds: number) {
    const from = this.#color.colorTemperatureMireds;
    const to = moveMode === ColorControl.MoveMode.Up ? maxMireds : minMireds;
    motions.set(entityOf(this).binding, { from, to, ratePerSecond: rate, startedAt: Date.now() });
    return this.#send({ mireds: to }, (Math.abs(to - from) / rate) * 10);
  }

  override moveHueLogic(): never {
    return unsupportedCommand("continuous hue moves have no Home Assistant equivalent");
  }

  override moveSaturationLogic(): never {
    return unsupportedCommand("continuous saturation moves have no Home Assistant equivalent");
  }

  override moveColorLogic(): never {
    return unsupportedCommand("continuous xy moves have no Home Assistant equivalent");
  }

  /** StopMoveStep after MoveColorTemperature: HA gets the temperature reached so far. */
  override async stopMoveStepLogic() {
    const binding = entityOf(this).binding;
    const motion = motions.get(binding);
    if (!motion) return;
    motions.delete(binding);
    await this.#send({ mireds: valueAfter(motion, Date.now() - motion.startedAt) }, 0);
  }

  /** MoveColorTemperature with MoveMode Stop lands here (matter.js); it ends our temperature move too. */
  override stopHueAndSaturationMovement() {
    return this.stopMoveStepLogic();
  }

  // No local transitions exist, so a colour mode switch has nothing to stop.
  override stopAllColorMovement() {}

  get #color(): ColorState {
    return this.state as unknown as ColorState;
  }

  /** The `light.turn_on` data for `target`, and the attribute writes that show it. */
  #plan(target: Target): { data: Record<string, unknown>; write: () => void } {
    const ha = entityOf(this);
    if ("mireds" in target) {
      const range = colorTempRange(
        numberAttr(ha.entity, "min_color_temp_kelvin"),
        numberAttr(ha.entity, "max_color_temp_kelvin"),
      );
      const mireds = Math.min(range.maxMireds, Math.max(range.minMireds, Math.round(target.mireds)));
      return {
        data: { color_temp_kelvin: miredsToKelvin(mireds, range) },
        write: () => {
          this.#color.colorTemperatureMireds = mireds;
        },
      };
    }
    if ("x" in target) {
      return {
        data: { xy_color: [xyFromMatter(target.x), xyFromMatter(target.y)] },
        write: () => {
          this.#color.currentX = target.x;
          this.#color.currentY = target.y;
        },
      };
    }
    return {
      data: { hs_color: [hueFromMatter(target.hue), saturationFromMatter(target.saturation)] },
      write: () => {
        this.#color.currentHue = target.hue;
        this.#color.currentSaturation = target.saturation;
      },
    };
  }

  async #send(target: Target, transitionTime: number) {
    const ha = entityOf(this);
    const onOff = this.agent.has(OnOffServer) ? this.agent.get(OnOffServer) : undefined;
    const { data, write } = this.#plan(target);
    // An On (or a level with OnOff) for this light waiting to leave in this turn counts as on: the colour joins it.
    if (onOff && !onOff.state.onOff && !ha.isPending("light.turn_on")) {
      // Only reachable with ExecuteIfOff: HA cannot colour an off light, so the next On carries it.
      return sendThenCommit(undefined, [this], () => {
        write();
        const staged = Object.fromEntries(Object.entries(ha.binding.staged).filter(([name]) => !COLOR_KEYS.includes(name)));
        ha.binding.staged = { ...staged, ...data };
      });
    }
    await sendThenCommit(ha.call("light.turn_on", { ...data, ...transitionData(transitionTime) }), [this], write);
  }

  /**
   * The MoveTo* commands controllers use to set a colour, arriving together with an On or a MoveToLevelWithOnOff
   * (either order) for an off light, join that command's `light.turn_on`: after it the light counts as on, before
   * it the colour rides along with it and is dropped without one, as Matter ignores the command then.
   * Returns the request to run matter.js's command with, or "handled" when the colour now rides along.
   */
  #whileTurningOn<R extends OptionsRequest>(request: R, target: () => Target): R | "handled" {
    const onOff = this.agent.has(OnOffServer) ? this.agent.get(OnOffServer) : undefined;
    if (!onOff || onOff.state.onOff || executesIfOff(request, this.state.options)) return request;
    const ha = entityOf(this);
    if (ha.isPending("light.turn_on")) return { ...request, ...EXECUTE_IF_OFF };
    ha.rideAlong("light.turn_on", this.#plan(target()).data);
    return "handled";
  }
}

type OptionsRequest = { optionsMask?: { executeIfOff?: boolean }; optionsOverride?: { executeIfOff?: boolean } };
const EXECUTE_IF_OFF = { optionsMask: { executeIfOff: true }, optionsOverride: { executeIfOff: true } };
