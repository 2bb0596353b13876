/**
 * ModeSelect → `select.select_option` / `input_select.select_option`. Each HA option is one mode; the mode number
 * is the option's index, the label its text (cut to Matter's 64 characters).
 */
import { ModeSelectServer } from "@matter/main/behaviors/mode-select";
import type { ModeSelect } from "@matter/main/clusters/mode-select";
import { Status, StatusResponseError } from "@matter/main/types";
import { selectOptions } from "../model/capabilities.ts";
import { entityOf, lockForWrite } from "./ha-entity-behavior.ts";

/** Matter ModeSelect limits the mode label to 64 characters (Matter 1.3 §1.9.8.1). */
const MAX_LABEL = 64;

/**
 * Mode numbers are uint8 and SupportedModes holds at most 255 entries: a longer HA option list shows its first 255
 * options (the rest cannot be chosen from a controller), rather than leaving the whole entity out.
 */
export const MAX_MODES = 255;

/** SupportedModes for a list of HA options. */
export function modesForOptions(options: readonly string[]): ModeSelect.ModeOption[] {
  return options
    .slice(0, MAX_MODES)
    .map((option, index) => ({ label: option.slice(0, MAX_LABEL), mode: index, semanticTags: [] }));
}

/** ModeSelect whose mode changes are HA select calls. */
export class HaModeSelectServer extends ModeSelectServer {
  override async changeToMode({ newMode }: ModeSelect.ChangeToModeRequest) {
    const ha = entityOf(this);
    const option = selectOptions(ha.entity)[newMode];
    if (option === undefined) throw new StatusResponseError(`no mode ${newMode}`, Status.InvalidCommand);
    await lockForWrite(this);
    this.state.currentMode = newMode;
    await ha.call(`${ha.domain}.select_option`, { option });
  }
}
