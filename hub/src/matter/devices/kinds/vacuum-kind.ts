/**
 * Robotic Vacuum Cleaner (0x0074): its own module, loaded with the first vacuum (index.ts): a home without one
 * never holds the RVC clusters.
 */
import { RvcOperationalState } from "@matter/main/clusters/rvc-operational-state";
import { RoboticVacuumCleanerDevice } from "@matter/main/devices/robotic-vacuum-cleaner";
import { HaRvcOperationalStateServer } from "../../behaviors/rvc-operational-state-server.ts";
import { HaRvcRunModeServer, RUN_MODE_CLEANING, RUN_MODE_IDLE, RUN_MODES } from "../../behaviors/rvc-run-mode-server.ts";
import type { DeviceKind, StatePatch } from "./kind.ts";

const Op = RvcOperationalState.OperationalState;
const VACUUM_STATES: Record<string, RvcOperationalState.OperationalState> = {
  cleaning: Op.Running,
  paused: Op.Paused,
  returning: Op.SeekingCharger,
  docked: Op.Docked,
  idle: Op.Stopped,
  error: Op.Error,
};

/** Robotic Vacuum Cleaner (0x0074): run mode Idle/Cleaning plus operational state (research complaints #9, #10). */
export const roboticVacuumCleaner: DeviceKind = {
  endpointType: () => RoboticVacuumCleanerDevice.with(HaRvcRunModeServer, HaRvcOperationalStateServer),
  fixed: () => ({
    rvcRunMode: { supportedModes: RUN_MODES, currentMode: RUN_MODE_IDLE },
    rvcOperationalState: {
      operationalStateList: Object.values(VACUUM_STATES)
        .filter((id, index, all) => all.indexOf(id) === index)
        .map((operationalStateId) => ({ operationalStateId })),
      operationalState: Op.Stopped,
      operationalError: { errorStateId: RvcOperationalState.ErrorState.NoError },
      phaseList: null,
      currentPhase: null,
    },
  }),
  project: (context): StatePatch => {
    const state = context.snapshot.state?.state ?? "";
    const operational = VACUUM_STATES[state];
    if (operational === undefined) return {};
    const error =
      operational === Op.Error
        ? RvcOperationalState.ErrorState.UnableToCompleteOperation
        : RvcOperationalState.ErrorState.NoError;
    return {
      rvcRunMode: { currentMode: operational === Op.Running || operational === Op.Paused ? RUN_MODE_CLEANING : RUN_MODE_IDLE },
      rvcOperationalState: { operationalState: operational, operationalError: { errorStateId: error } },
    };
  },
  signature: () => "rvc",
};
