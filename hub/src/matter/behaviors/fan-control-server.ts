/**
 * FanControl → HA fan (or humidifier) calls. Controllers drive fans by writing FanMode, PercentSetting,
 * SpeedSetting, RockSetting, WindSetting and AirflowDirection (Matter 1.3 §4.4.6); each write request becomes the
 * calls of {@link fanWritePlan}, sent before the write commits, so a refusal by HA fails the write and restores the
 * old values. The Step command goes the same way.
 */
import { FanControlServer } from "@matter/main/behaviors/fan-control";
import { FanControl } from "@matter/main/clusters/fan-control";
import { fanCapabilities, humidifierCapabilities } from "../model/capabilities.ts";
import { percentageToSpeed, speedToPercentage } from "../model/convert/fan.ts";
import { numberAttr } from "../model/ha-state.ts";
import { type FanWrite, FanWriteError, fanWritePlan, stepSpeed } from "./fan-control-plan.ts";
import { constraintError, entityOf, lockForWrite } from "./ha-entity-behavior.ts";
import { forwardWrites, markOrigin, type WrittenValues } from "./write-forwarder.ts";

const Base = FanControlServer.with(
  FanControl.Feature.MultiSpeed,
  FanControl.Feature.Auto,
  FanControl.Feature.Rocking,
  FanControl.Feature.Wind,
  FanControl.Feature.Step,
  FanControl.Feature.AirflowDirection,
);

const WRITABLE = ["fanMode", "percentSetting", "speedSetting", "rockSetting", "windSetting", "airflowDirection"];

/** FanControl whose writes and Step commands are HA calls. */
export class HaFanControlServer extends Base {
  override initialize() {
    super.initialize();
    forwardWrites(this, WRITABLE, function (written) {
      return this.forwardWrite(written);
    });
  }

  /** A controller's write, already in state; refusing throws and rolls it back. */
  async forwardWrite(written: WrittenValues) {
    await this.#send(written as FanWrite);
  }

  /** Step (Step feature): one speed up or down, honouring Wrap and LowestOff. */
  override async step(request: FanControl.StepRequest) {
    const ha = entityOf(this);
    const speeds = this.state.speedMax ?? 0;
    if (speeds === 0) return constraintError(`${ha.entityId} has no speeds`);
    markOrigin(this.context.transaction, "command");
    await lockForWrite(this);
    const current = this.state.speedSetting ?? percentageToSpeed(numberAttr(ha.entity, "percentage") ?? 0, speeds);
    const speed = stepSpeed(current, speeds, request);
    const percentage = speedToPercentage(speed, speeds);
    this.state.speedSetting = speed;
    this.state.percentSetting = percentage;
    await this.#send({ percentSetting: percentage });
  }

  async #send(write: FanWrite) {
    const ha = entityOf(this);
    const caps = ha.domain === "humidifier" ? humidifierCapabilities(ha.entity) : fanCapabilities(ha.entity);
    let calls: ReturnType<typeof fanWritePlan>;
    try {
      calls = fanWritePlan(ha.domain, write, caps, ha.entity);
    } catch (error) {
      if (error instanceof FanWriteError) return constraintError(`${ha.entityId}: ${error.message}`);
      throw error;
    }
    for (const call of calls) await ha.call(call.action, call.data);
  }
}
