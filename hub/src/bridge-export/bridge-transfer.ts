import { badRequest } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { BridgeConfig, CreateBridge } from "../bridges/bridge-config.ts";
import type { BridgeService } from "../bridges/bridge-service.ts";
import type { EntityMappingStore } from "../entity-mappings/entity-mapping-store.ts";
import { buildExport, type ExportFile, type ImportedBridge } from "./export-format.ts";
import { type ImportOptions, planErrors, planImport } from "./import-plan.ts";

export interface BridgeTransferDeps {
  bridges: BridgeService;
  mappings: EntityMappingStore;
  appVersion: string;
  log: Logger;
  /**
   * Creates a bridge for an imported entry that does not exist here. Default: `BridgeService.create`, which
   * assigns a new id and fresh pairing codes (see docs/backup.md, "Ids on import").
   */
  createBridge?: (input: CreateBridge, sourceId: string) => Promise<{ id: string }>;
}

export interface ImportResult {
  created: { sourceId: string; id: string; name: string }[];
  overwritten: { id: string; name: string }[];
  skipped: { id: string; reasons: string[] }[];
}

/** Export and import of bridge configurations with their entity mappings (`/api/bridges`). */
export class BridgeTransfer {
  readonly #deps: BridgeTransferDeps;
  readonly #createBridge: (input: CreateBridge, sourceId: string) => Promise<{ id: string }>;

  constructor(deps: BridgeTransferDeps) {
    this.#deps = deps;
    this.#createBridge = deps.createBridge ?? ((input) => deps.bridges.create(input));
  }

  /** All bridges, or one (404 for an unknown id), in the versioned export format. */
  export(bridgeId?: string): ExportFile {
    const configs = bridgeId === undefined ? this.#configs() : [configOf(this.#deps.bridges.record(bridgeId))];
    const entries = configs.map((config) => ({ config, mappings: this.#deps.mappings.list(config.id) }));
    return buildExport(entries, this.#deps.appVersion);
  }

  /** What `import` would do with each bridge; changes nothing. */
  preview(data: unknown, options: ImportOptions) {
    const plan = planImport(data, options, this.#configs());
    const summary = { create: 0, overwrite: 0, skip: 0 };
    for (const item of plan.items) summary[item.action]++;
    return {
      exportedAt: plan.exportedAt,
      appVersion: plan.appVersion,
      bridges: plan.items.map(({ id, name, port, mappings, action, reasons }) => ({ id, name, port, mappings, action, reasons })),
      unknownBridgeIds: plan.unknownSelection,
      summary,
      // Would `POST /import` with the same options apply it (true) or refuse it with 400 (false)?
      valid: planErrors(plan).length === 0,
    };
  }

  /**
   * Applies the file: everything is validated first and any problem refuses the whole import with 400 before
   * anything changes. Then new bridges are created (stopped until their mappings are in place) and existing
   * ones updated; an overwritten bridge keeps its running state (`autoStart`) and its pairing.
   */
  async import(data: unknown, options: ImportOptions): Promise<ImportResult> {
    const plan = planImport(data, options, this.#configs());
    const errors = planErrors(plan);
    if (errors.length > 0) throw badRequest(`Import refused, nothing changed: ${errors.slice(0, 5).join("; ")}`);
    const result: ImportResult = { created: [], overwritten: [], skipped: [] };
    for (const item of plan.items) {
      if (item.action === "skip" || !item.bridge) result.skipped.push({ id: item.id, reasons: item.reasons });
      else if (item.action === "create") result.created.push(await this.#create(item.bridge));
      else result.overwritten.push(await this.#overwrite(item.bridge));
    }
    this.#deps.log.info(
      { created: result.created.length, overwritten: result.overwritten.length, skipped: result.skipped.length },
      "bridges imported",
    );
    return result;
  }

  async #create({ config, mappings }: ImportedBridge) {
    const { id: sourceId, autoStart, ...rest } = config;
    const { id } = await this.#createBridge({ ...rest, autoStart: false }, sourceId);
    await this.#replaceMappings(id, mappings);
    if (autoStart) await this.#deps.bridges.act(id, "start");
    return { sourceId, id, name: config.name };
  }

  async #overwrite({ config, mappings }: ImportedBridge) {
    const { id, name, port, filter, priority, serverMode, composeDevices, controllers, leaveOutUnsupported } = config;
    await this.#deps.bridges.update(id, {
      name,
      port,
      filter,
      priority,
      serverMode,
      composeDevices,
      // A file from before controllers existed names none: the bridge keeps no checks, as before.
      controllers: controllers ?? [],
      leaveOutUnsupported: leaveOutUnsupported ?? false,
    });
    await this.#replaceMappings(id, mappings);
    return { id, name };
  }

  /** Writes only what differs, so unchanged entities are not rebuilt on a live bridge. */
  async #replaceMappings(bridgeId: string, wanted: ImportedBridge["mappings"]): Promise<void> {
    const store = this.#deps.mappings;
    const keep = new Set(wanted.map((m) => m.entityId));
    for (const current of store.list(bridgeId)) if (!keep.has(current.entityId)) await store.delete(bridgeId, current.entityId);
    for (const mapping of wanted) {
      const current = store.get(bridgeId, mapping.entityId);
      const same =
        current?.matterDeviceType === (mapping.matterDeviceType ?? null) &&
        current.customName === (mapping.customName || null) &&
        current.disabled === (mapping.disabled ?? false) &&
        current.detached === (mapping.detached ?? false);
      if (!same) {
        const { entityId, matterDeviceType, customName, disabled, detached } = mapping;
        await store.put(bridgeId, entityId, {
          matterDeviceType: matterDeviceType ?? null,
          customName: customName ?? null,
          disabled: disabled ?? false,
          detached: detached ?? false,
        });
      }
    }
  }

  #configs(): BridgeConfig[] {
    return this.#deps.bridges.list().map(configOf);
  }
}

/** The stored configuration inside a bridge record (the record adds runtime status fields). */
function configOf(record: ReturnType<BridgeService["record"]>): BridgeConfig {
  const {
    id,
    name,
    port,
    filter,
    priority,
    serverMode,
    composeDevices,
    controllers,
    leaveOutUnsupported,
    autoStart,
    passcode,
    discriminator,
    createdAt,
    updatedAt,
  } = record;
  return {
    id,
    name,
    port,
    filter,
    priority,
    serverMode,
    composeDevices,
    controllers,
    leaveOutUnsupported,
    autoStart,
    passcode,
    discriminator,
    createdAt,
    updatedAt,
  };
}
