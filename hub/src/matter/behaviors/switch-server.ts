/**
 * Generic Switch (Switch cluster, momentary) fed by an HA `event` entity: every new HA event becomes the Matter
 * event sequence of a single, double, triple or long press (Matter 1.3 §1.13.9), which controllers offer as
 * automation triggers. Built on the bare SwitchBehavior: matter.js's SwitchServer derives events from RawPosition
 * changes with its own timers, while HA already tells us which press happened.
 */
import { SwitchBehavior } from "@matter/main/behaviors/switch";
import { Switch } from "@matter/main/clusters/switch";

const Base = SwitchBehavior.with(
  Switch.Feature.MomentarySwitch,
  Switch.Feature.MomentarySwitchRelease,
  Switch.Feature.MomentarySwitchLongPress,
  Switch.Feature.MomentarySwitchMultiPress,
);

/** The press an HA event type stands for. */
export type PressKind = "single" | "double" | "triple" | "long";

/** Classifies HA event types ("press", "double_press", "long_press", "ring", …); unknown types are single presses. */
export function pressKind(eventType: string | undefined): PressKind {
  const type = (eventType ?? "").toLowerCase();
  if (type.includes("triple") || type.includes("3")) return "triple";
  if (type.includes("double") || type.includes("2")) return "double";
  if (type.includes("long") || type.includes("hold")) return "long";
  return "single";
}

/** Momentary Switch whose press events come from HA. */
export class HaSwitchServer extends Base {
  /** Emits the event sequence of one press; position 1 is "pressed", 0 the rest position. */
  emitPress(kind: PressKind) {
    const events = this.events;
    events.initialPress.emit({ newPosition: 1 }, this.context);
    if (kind === "long") {
      events.longPress.emit({ newPosition: 1 }, this.context);
      events.longRelease.emit({ previousPosition: 1 }, this.context);
      return;
    }
    const presses = kind === "triple" ? 3 : kind === "double" ? 2 : 1;
    const counted = Math.min(presses, this.state.multiPressMax);
    events.shortRelease.emit({ previousPosition: 1 }, this.context);
    for (let press = 2; press <= counted; press++) {
      events.multiPressOngoing.emit({ newPosition: 1, currentNumberOfPressesCounted: press }, this.context);
      events.shortRelease.emit({ previousPosition: 1 }, this.context);
    }
    events.multiPressComplete.emit({ previousPosition: 1, totalNumberOfPressesCounted: counted }, this.context);
  }
}
