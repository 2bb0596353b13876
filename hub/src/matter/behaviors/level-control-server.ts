/**
 * LevelControl → HA: light brightness (`light.turn_on {brightness}`) or speaker volume (`media_player.volume_set`).
 * matter.js's command methods still validate input and evaluate ExecuteIfOff; we replace the *Logic methods that
 * would run local transitions, because HA owns transitions (sent as `transition` seconds).
 *
 * Rules (research complaint #7, Matter 1.3 §1.6.4):
 * - MoveToLevelWithOnOff is ONE `light.turn_on` with brightness; it never becomes "on, then level".
 * - MoveToLevel (without OnOff) on an off light does not turn it on: with ExecuteIfOff the level is staged and
 *   sent with the next On; without it matter.js ignores the command.
 * - On never touches the level (handleOnOffChange is a no-op), so HA restores the last brightness.
 * - An On and a level command arriving together (same turn, or one batched invoke) become ONE `light.turn_on`
 *   (command-merge.ts).
 */
import { LevelControlServer } from "@matter/main/behaviors/level-control";
import { OnOffServer } from "@matter/main/behaviors/on-off";
import { LevelControl } from "@matter/main/clusters/level-control";
import { levelToBrightness, levelToVolume } from "../model/convert/light.ts";
import { runMerging, sendThenCommit } from "./command-merge.ts";
import { type EntityBinding, entityOf, unsupportedCommand } from "./ha-entity-behavior.ts";
import { type Motion, valueAfter } from "./motion.ts";

const motions = new WeakMap<EntityBinding, Motion>();

/** LevelControl whose level changes are HA calls. */
export class HaLevelControlServer extends LevelControlServer {
  override moveToLevelLogic(level: number, transitionTime: number | null, withOnOff: boolean) {
    return this.#apply(level, withOnOff, transitionTime !== null && transitionTime > 0 ? transitionTime / 10 : undefined);
  }

  override moveLogic(moveMode: LevelControl.MoveMode, rate: number | null, withOnOff: boolean) {
    const current = this.state.currentLevel ?? this.minLevel;
    const target = moveMode === LevelControl.MoveMode.Up ? this.maxLevel : this.minLevel;
    const binding = entityOf(this).binding;
    if (!rate) {
      motions.delete(binding);
      return this.#apply(target, withOnOff, undefined);
    }
    motions.set(binding, { from: current, to: target, ratePerSecond: rate, startedAt: Date.now() });
    return this.#apply(target, withOnOff, Math.abs(target - current) / rate);
  }

  override stepLogic(stepMode: LevelControl.StepMode, stepSize: number, transitionTime: number | null, withOnOff: boolean) {
    const current = this.state.currentLevel ?? this.minLevel;
    const direction = stepMode === LevelControl.StepMode.Up ? 1 : -1;
    const target = Math.min(this.maxLevel, Math.max(this.minLevel, current + direction * stepSize));
    return this.#apply(target, withOnOff, transitionTime ? transitionTime / 10 : undefined);
  }

  /** Stop after a Move: HA gets the level the light has reached, which ends its transition there. */
  override async stopLogic() {
    const binding = entityOf(this).binding;
    const motion = motions.get(binding);
    if (!motion) return;
    motions.delete(binding);
    await this.#apply(valueAfter(motion, Date.now() - motion.startedAt), false, undefined);
  }

  /** No OnLevel coupling: HA remembers the brightness a light turns on with (complaint #7). */
  override handleOnOffChange() {}

  /**
   * MoveToLevel on an off light arriving together with an On (either order) joins the On's `light.turn_on`: after a
   * pending On the light counts as on; before one, the brightness rides along with an On of the same turn and is
   * dropped without one, exactly as Matter ignores the command (no ExecuteIfOff, Matter 1.3 §1.6.4.1.1).
   */
  override moveToLevel(request: LevelControl.MoveToLevelRequest) {
    return runMerging(this, LevelControl.Cluster.id, 0x00, () => this.#moveToLevel(request));
  }

  override moveToLevelWithOnOff(request: LevelControl.MoveToLevelRequest) {
    return runMerging(this, LevelControl.Cluster.id, 0x04, () => super.moveToLevelWithOnOff(request));
  }

  #moveToLevel(request: LevelControl.MoveToLevelRequest) {
    const ha = entityOf(this);
    const onOff = this.agent.has(OnOffServer) ? this.agent.get(OnOffServer) : undefined;
    const off = ha.domain === "light" && onOff !== undefined && !onOff.state.onOff;
    if (!off || executesIfOff(request, this.state.options)) return super.moveToLevel(request);
    if (ha.isPending("light.turn_on")) return super.moveToLevel({ ...request, ...EXECUTE_IF_OFF });
    const level = Math.min(this.maxLevel, Math.max(this.minLevel, request.level));
    ha.rideAlong("light.turn_on", { brightness: levelToBrightness(level) });
  }

  async #apply(level: number, withOnOff: boolean, transitionSeconds: number | undefined) {
    const ha = entityOf(this);
    const onOff = this.agent.has(OnOffServer) ? this.agent.get(OnOffServer) : undefined;
    const transition = transitionSeconds !== undefined ? { transition: Math.round(transitionSeconds * 10) / 10 } : {};
    const behaviors: [LevelControlServer, ...OnOffServer[]] = onOff ? [this, onOff] : [this];
    if (ha.domain === "media_player") {
      const sent = ha.call("media_player.volume_set", { volume_level: levelToVolume(level) });
      return sendThenCommit(sent, behaviors, () => {
        this.state.currentLevel = level;
      });
    }
    if (ha.domain !== "light") return unsupportedCommand(`${ha.domain} has no level`);
    // An On for this light waiting to leave in this turn counts as on: the level joins its turn_on.
    const isOn = (onOff?.state.onOff ?? true) || ha.isPending("light.turn_on");
    if (withOnOff && level <= this.minLevel) {
      // Spec: a WithOnOff move to the minimum ends off.
      return sendThenCommit(ha.call("light.turn_off", transition), behaviors, () => {
        this.state.currentLevel = this.minLevel;
        if (onOff) onOff.state.onOff = false;
      });
    }
    if (!withOnOff && !isOn) {
      return sendThenCommit(undefined, behaviors, () => {
        this.state.currentLevel = level;
        ha.binding.staged = { ...ha.binding.staged, brightness: levelToBrightness(level) };
      });
    }
    const sent = ha.call("light.turn_on", { ...ha.binding.staged, brightness: levelToBrightness(level), ...transition });
    await sendThenCommit(sent, behaviors, () => {
      this.state.currentLevel = level;
      if (onOff && !onOff.state.onOff) onOff.state.onOff = true;
    });
    ha.binding.staged = {};
  }
}

const EXECUTE_IF_OFF = { optionsMask: { executeIfOff: true }, optionsOverride: { executeIfOff: true } };

/** Matter's effective ExecuteIfOff: the command's override where its mask says so, else the Options attribute. */
export function executesIfOff(
  request: { optionsMask?: { executeIfOff?: boolean }; optionsOverride?: { executeIfOff?: boolean } },
  options: { executeIfOff?: boolean } | undefined,
): boolean {
  return request.optionsMask?.executeIfOff ? request.optionsOverride?.executeIfOff === true : options?.executeIfOff === true;
}
