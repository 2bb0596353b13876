/** Generic Switch (0x000F): its own module, loaded with the first event entity (index.ts). */
import { Switch } from "@matter/main/clusters/switch";
import { GenericSwitchDevice } from "@matter/main/devices/generic-switch";
import { HaSwitchServer, pressKind } from "../../behaviors/switch-server.ts";
import { hasValue, stringAttr, stringListAttr } from "../../model/ha-state.ts";
import type { DeviceKind, KindContext } from "./kind.ts";

/** Presses the event entity can report (Switch MultiPressMax is at least 2). */
function multiPressMax(context: KindContext): number {
  const kinds = stringListAttr(context.snapshot.state, "event_types").map(pressKind);
  return kinds.includes("triple") ? 3 : 2;
}

/** Generic Switch (0x000F) for HA event entities; each new event (new state timestamp) is one press. */
export const genericSwitch: DeviceKind = {
  endpointType: () =>
    GenericSwitchDevice.with(
      HaSwitchServer.with(
        Switch.Feature.MomentarySwitch,
        Switch.Feature.MomentarySwitchRelease,
        Switch.Feature.MomentarySwitchLongPress,
        Switch.Feature.MomentarySwitchMultiPress,
      ),
    ),
  fixed: (context) => ({ switch: { numberOfPositions: 2, currentPosition: 0, multiPressMax: multiPressMax(context) } }),
  project: () => ({}),
  signature: (context) => String(multiPressMax(context)),
  async afterUpdate(endpoint, previous, next) {
    const before = previous.state;
    const after = next.state;
    // A new timestamp is a press; coming back from `unavailable` is HA restoring the last one, not a press.
    if (!before || before.state === "unavailable" || !hasValue(after) || before.state === after.state) return;
    const kind = pressKind(stringAttr(after, "event_type"));
    await endpoint.act("ha-event", (agent) => agent.get(HaSwitchServer).emitPress(kind));
  },
};
