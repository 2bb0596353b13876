import * as v from "valibot";
import type { BridgeConfig } from "../bridges/bridge-config.ts";
import { CreateBridgeSchema } from "../bridges/bridge-config.ts";
import type { EntityMapping } from "../entity-mappings/entity-mapping-store.ts";
import { EntityMappingSchema } from "../entity-mappings/entity-mapping-store.ts";

/** The `format` marker of an export file; `version` says how to read the rest. */
export const EXPORT_FORMAT = "matter-hub.bridges";
export const EXPORT_VERSION = 1;
export const MAX_IMPORTED_BRIDGES = 200;
export const MAX_IMPORTED_MAPPINGS = 5000;

/** Bridge ids become file names (identities/<id>.json, matter/<id>/), so an imported one must be a plain token. */
export const BRIDGE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const ENTITY_ID_PATTERN = /^[a-z0-9_]+\.[a-z0-9_]+$/;

/** A bridge as exported: its configuration without pairing secrets or timestamps. */
export type ExportedConfig = Pick<
  BridgeConfig,
  | "id"
  | "name"
  | "port"
  | "filter"
  | "priority"
  | "serverMode"
  | "composeDevices"
  | "controllers"
  | "leaveOutUnsupported"
  | "autoStart"
>;
export type ExportedMapping = Pick<EntityMapping, "entityId" | "matterDeviceType" | "customName" | "disabled" | "detached">;
export interface ExportedBridge {
  config: ExportedConfig;
  mappings: ExportedMapping[];
}

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  appVersion: string;
  bridges: ExportedBridge[];
}

/** Builds the export document. Passcode and discriminator stay behind: an import gets fresh pairing codes. */
export function buildExport(
  bridges: { config: BridgeConfig; mappings: EntityMapping[] }[],
  appVersion: string,
  now = new Date(),
): ExportFile {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    appVersion,
    bridges: bridges.map(({ config, mappings }) => ({
      config: {
        id: config.id,
        name: config.name,
        port: config.port,
        filter: config.filter,
        priority: config.priority,
        serverMode: config.serverMode,
        composeDevices: config.composeDevices,
        controllers: config.controllers ?? [],
        leaveOutUnsupported: config.leaveOutUnsupported ?? false,
        autoStart: config.autoStart,
      },
      mappings: mappings.map(({ entityId, matterDeviceType, customName, disabled, detached }) => ({
        entityId,
        matterDeviceType,
        customName,
        disabled,
        detached,
      })),
    })),
  };
}

/** The `Content-Disposition` file name of an export made on `now`'s UTC date. */
export function exportFileName(now = new Date()): string {
  return `matter-hub-bridges-${now.toISOString().slice(0, 10)}.json`;
}

/** The envelope: checked as a whole before any bridge is looked at (unknown format or version → 400). */
export const ExportEnvelopeSchema = v.object({
  format: v.literal(EXPORT_FORMAT, `format must be "${EXPORT_FORMAT}"`),
  version: v.literal(EXPORT_VERSION, `unsupported version (this hub reads version ${EXPORT_VERSION})`),
  exportedAt: v.optional(v.string()),
  appVersion: v.optional(v.string()),
  bridges: v.pipe(
    v.array(v.unknown(), "bridges must be an array"),
    v.maxLength(MAX_IMPORTED_BRIDGES, `at most ${MAX_IMPORTED_BRIDGES} bridges per file`),
  ),
});

const MappingEntrySchema = v.object({
  entityId: v.pipe(v.string(), v.regex(ENTITY_ID_PATTERN, "entityId must be an entity id such as light.kitchen")),
  ...EntityMappingSchema.entries,
});

/** One bridge entry: the create fields (same rules and defaults as `POST /api/matter/bridges`) plus its id. */
export const ExportedBridgeSchema = v.object({
  config: v.object({
    id: v.pipe(v.string("id must be a string"), v.regex(BRIDGE_ID_PATTERN, "id must be 1-64 letters, digits, _ or -")),
    ...CreateBridgeSchema.entries,
  }),
  mappings: v.optional(
    v.pipe(
      v.array(MappingEntrySchema),
      v.maxLength(MAX_IMPORTED_MAPPINGS),
      v.check((list) => new Set(list.map((m) => m.entityId)).size === list.length, "mappings repeat an entity id"),
    ),
    [],
  ),
});
export type ImportedBridge = v.InferOutput<typeof ExportedBridgeSchema>;
