import type { BridgeService } from "../bridges/bridge-service.ts";
import { controllerVendor } from "../diagnostics/controller-vendors.ts";
import type { DiagnosticBus } from "../diagnostics/diagnostic-bus.ts";
import { countBridges, type HealthStatus, overallStatus } from "../diagnostics/health-status.ts";
import type { HomeAssistantService } from "../home-assistant/home-assistant-service.ts";
import type { RecoveryAttempt } from "../recovery/recovery-attempts.ts";
import type { RecoverySettings } from "../recovery/recovery-settings.ts";

/** What `/detailed` shows of automatic recovery; absent until the recovery service is wired in. */
export interface RecoveryStatusSource {
  readonly settings: RecoverySettings;
  /** ISO time of the next scheduled sweep, or null when recovery is off. */
  readonly nextAttemptAt: string | null;
  attempts(bridgeId: string): RecoveryAttempt[];
}

export interface DetailedHealthSources {
  bridges: BridgeService;
  homeAssistant: HomeAssistantService;
  recovery?: RecoveryStatusSource | undefined;
}

const iso = (epochMs: number | undefined) => (epochMs === undefined ? null : new Date(epochMs).toISOString());

/**
 * `GET /api/health/detailed` without the envelope: the Home Assistant link, recovery settings and, per bridge, its
 * status, fabrics with the controller vendor, entities that failed (with the reason), how many were skipped, what its
 * chosen controllers warn of, and its recovery state with the recent attempts.
 */
export function detailedHealth(sources: DetailedHealthSources, status: HealthStatus) {
  const { bridges, homeAssistant, recovery } = sources;
  const ha = homeAssistant.client.status;
  const list = bridges.list();
  return {
    status,
    homeAssistant: {
      connected: ha.connected,
      state: ha.state,
      version: ha.haVersion ?? null,
      error: ha.fatal ?? null,
      lastConnectedAt: iso(ha.lastConnectedAt),
      lastDisconnectedAt: iso(ha.lastDisconnectedAt),
      reconnects: ha.reconnects,
      entities: homeAssistant.model.states.size,
    },
    recovery: recovery ? { ...recovery.settings, nextAttemptAt: recovery.nextAttemptAt } : null,
    counts: countBridges(list),
    bridges: list.map((bridge) => {
      const rows = bridges.devices(bridge.id);
      const attempts = recovery?.attempts(bridge.id) ?? [];
      return {
        id: bridge.id,
        name: bridge.name,
        status: bridge.status,
        statusReason: bridge.statusReason,
        port: bridge.port,
        deviceCount: bridge.deviceCount,
        commissioned: bridge.commissioning.commissioned,
        fabrics: bridge.commissioning.fabrics.map((fabric) => ({
          fabricIndex: fabric.fabricIndex,
          vendorId: fabric.vendorId,
          vendor: controllerVendor(fabric.vendorId),
          label: fabric.label,
        })),
        failedEntities: rows.flatMap((row) => (row.failed ? [{ entityId: row.entityId, reason: row.failed }] : [])),
        skippedEntities: rows.filter((row) => row.skipped).length,
        /** Chosen controllers' limits this bridge exceeds, flagged device types on it (docs/decisions.md "Controller limits"). */
        controllers: bridge.controllers,
        controllerWarnings: bridge.controllerWarnings,
        recovery: {
          // Whether this bridge would be restarted if it failed: recovery is on and the user did not stop it.
          enabled: Boolean(recovery?.settings.autoRecoveryEnabled && bridge.autoStart),
          lastAttempt: attempts.at(-1) ?? null,
          attempts,
        },
      };
    }),
  };
}

/**
 * The "current summary" of a `diagnostic_snapshot`: the overall health status with what it is made of, so a
 * subscriber can draw its header before any event arrives.
 */
export function diagnosticSummary(sources: DetailedHealthSources & { diagnostics: DiagnosticBus }) {
  const { connected, state, fatal } = sources.homeAssistant.client.status;
  const bridges = countBridges(sources.bridges.list());
  return {
    status: overallStatus({ connected, fatal }, bridges),
    homeAssistant: { connected, state, error: fatal ?? null },
    bridges,
    recovery: sources.recovery ? { ...sources.recovery.settings, nextAttemptAt: sources.recovery.nextAttemptAt } : null,
    /** Events published since the hub started, per type (the snapshot's list holds only the recent ones). */
    eventCounts: sources.diagnostics.counts(),
  };
}
