/**
 * SmokeCoAlarm fed by an HA binary sensor (smoke, carbon_monoxide, gas). HA only says on/off, which becomes
 * AlarmState Critical/Normal. The cluster's mandatory events (Matter 1.3 §2.11.8: SmokeAlarm/COAlarm on a rising
 * alarm, AllClear when every alarm is back to Normal) are what controllers turn into push notifications, so they
 * are emitted here whenever `updateDeviceEndpoint` changes the state.
 */
import { SmokeCoAlarmServer } from "@matter/main/behaviors/smoke-co-alarm";
import { SmokeCoAlarm } from "@matter/main/clusters/smoke-co-alarm";

const Base = SmokeCoAlarmServer.with(SmokeCoAlarm.Feature.SmokeAlarm, SmokeCoAlarm.Feature.CoAlarm);

/** SmokeCoAlarm that emits the alarm events on state changes. */
export class HaSmokeCoAlarmServer extends Base {
  override initialize() {
    super.initialize();
    if (this.features.smokeAlarm) this.reactTo(this.events.smokeState$Changed, this.#smokeChanged);
    if (this.features.coAlarm) this.reactTo(this.events.coState$Changed, this.#coChanged);
  }

  #smokeChanged(level: SmokeCoAlarm.AlarmState) {
    if (level !== SmokeCoAlarm.AlarmState.Normal) this.events.smokeAlarm.emit({ alarmSeverityLevel: level }, this.context);
    else this.#maybeAllClear();
  }

  #coChanged(level: SmokeCoAlarm.AlarmState) {
    if (level !== SmokeCoAlarm.AlarmState.Normal) this.events.coAlarm.emit({ alarmSeverityLevel: level }, this.context);
    else this.#maybeAllClear();
  }

  #maybeAllClear() {
    const normal = SmokeCoAlarm.AlarmState.Normal;
    const smoke = this.features.smokeAlarm ? this.state.smokeState : normal;
    const co = this.features.coAlarm ? this.state.coState : normal;
    if (smoke === normal && co === normal) this.events.allClear.emit(undefined, this.context);
  }
}
