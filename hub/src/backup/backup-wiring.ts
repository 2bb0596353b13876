import type { Hono, MiddlewareHandler } from "hono";
import { bridgeExportRoutes } from "../bridge-export/bridge-export.routes.ts";
import { BridgeTransfer } from "../bridge-export/bridge-transfer.ts";
import type { HubContext } from "../context.ts";
import { backupRoutes, restartPendingGuard } from "./backup.routes.ts";
import type { BackupLimits } from "./backup-manifest.ts";
import { BackupService } from "./backup-service.ts";

export interface BackupFeatures {
  backup: BackupService;
  transfer: BridgeTransfer;
  /** Mount at `/api/bridges`. */
  bridgeRoutes: Hono;
  /** Mount at `/api/backup`. */
  backupRoutes: Hono;
  /** `app.use(guard)` after authentication: refuses changes between a restore and the restart. */
  guard: MiddlewareHandler;
}

/**
 * Builds export/import and backup/restore over the hub's context; app.ts mounts what it returns. `requestRestart`
 * comes from main.ts (the `restartable` helper), tests pass their own.
 */
export function createBackupFeatures(
  ctx: HubContext,
  options: { requestRestart: () => unknown; limits?: Partial<BackupLimits>; restartDelayMs?: number },
): BackupFeatures {
  const log = ctx.log.child({ component: "backup" });
  const backup = new BackupService({
    dataDir: ctx.config.dataDir,
    appVersion: ctx.version,
    log,
    // Bridges are the only writers that run on their own (Matter sessions, HA events); the rest writes on API calls,
    // which the guard refuses until the restart.
    quiesce: () => ctx.bridges.stop(),
    limits: options.limits,
    reservedPluginNames: ctx.plugins.catalog.builtins().map((builtin) => builtin.name),
  });
  const transfer = new BridgeTransfer({ bridges: ctx.bridges, mappings: ctx.mappings, appVersion: ctx.version, log });
  return {
    backup,
    transfer,
    bridgeRoutes: bridgeExportRoutes(transfer),
    backupRoutes: backupRoutes({
      service: backup,
      requestRestart: options.requestRestart,
      log,
      restartDelayMs: options.restartDelayMs,
    }),
    guard: restartPendingGuard(backup),
  };
}
