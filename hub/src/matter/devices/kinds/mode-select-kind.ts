/** Mode Select (0x0027): its own module, loaded with the first select entity exposed as one (index.ts). */
import { ModeSelectDevice } from "@matter/main/devices/mode-select";
import { HaModeSelectServer, MAX_MODES, modesForOptions } from "../../behaviors/mode-select-server.ts";
import { selectOptions } from "../../model/capabilities.ts";
import type { DeviceKind, StatePatch } from "./kind.ts";

/** Mode Select (0x0027): one mode per `select`/`input_select` option. */
export const modeSelect: DeviceKind = {
  endpointType: () => ModeSelectDevice.with(HaModeSelectServer),
  fixed: (context) => {
    // ModeSelect needs a mode to start in; an entity without options yet gets one placeholder mode.
    const options = selectOptions(context.snapshot.state);
    const modes = modesForOptions(options.length > 0 ? options : [context.snapshot.name || "Mode"]);
    return {
      modeSelect: {
        description: context.snapshot.name.slice(0, 64),
        standardNamespace: null,
        supportedModes: modes,
        currentMode: 0,
      },
    };
  },
  project: (context): StatePatch => {
    const options = selectOptions(context.snapshot.state);
    if (options.length === 0) return {};
    const index = options.indexOf(context.snapshot.state?.state ?? "");
    // An option past the 255 a controller can see leaves the current mode as it was.
    const current = index === -1 || index >= MAX_MODES ? undefined : index;
    return { modeSelect: { supportedModes: modesForOptions(options), currentMode: current } };
  },
  signature: () => "mode_select",
};
