/**
 * The portal's contract with its web UIs (`web/portal`: the sign-up page and the admin console): the response shapes
 * and the few constants the UIs need, in one module, so `web/` imports nothing else from `portal/src` and `tsc` flags
 * any drift between server and UI.
 *
 * What may go in here: type re-exports and types derived from server code (erased from the browser bundle), and
 * value re-exports only from leaf modules that hold plain constants or pure functions and import nothing at run time
 * (such as `bots/feature-keys.ts`, `branding/branding-settings.ts`, and `bots/bot-settings.ts`, whose check the
 * console runs on the bot settings form so that it shows per field exactly what the portal would refuse). Never a runtime import of a service, route, repository
 * or library: Vite would bundle it into the browser. Server code does not import this module; it imports the leaf
 * modules directly.
 */

import type { ConnectionFailure } from "./diagnostics/diagnostics.service.ts";
import type { publicEntry } from "./integrations/catalog/types.ts";
import type { IntegrationsService } from "./integrations/integrations.service.ts";

export type { AuditEntry } from "./audit/audit.service.ts";
export type { SessionUser } from "./auth/auth.service.ts";
export type { ProfileSync, TokenCheck } from "./bots/bot-account.ts";
export type { BotDetail, BotRecord, FeatureRecord, RoomAssignmentRecord } from "./bots/bot-records.ts";
export {
  type BotSetting,
  checkBotSettings,
  type EntryField,
  type SettingProblem,
  type SettingProblems,
} from "./bots/bot-settings.ts";
export type { BotTemplate } from "./bots/bot-templates.ts";
export { FEATURE_KEYS, type FeatureKey } from "./bots/feature-keys.ts";
export type { AssetRecord, ProfileRecord, PublicBranding } from "./branding/branding.service.ts";
export {
  ASSET_LIMITS,
  ASSET_PURPOSES,
  type AssetPurpose,
  BRANDING_DEFAULTS,
  type BrandingSettings,
  type ClientLink,
} from "./branding/branding-settings.ts";
export type { DiagnosticsResult } from "./diagnostics/diagnostics.service.ts";
/** The `errorCode`s of a failed check on save (`POST /api/admin/servers`, 422). */
export type ServerCheckCode = ConnectionFailure["code"];
export type { ConfigField, IntegrationType } from "./integrations/catalog/types.ts";
export type { AppserviceCheck, IntegrationDiagnostics, IntegrationHealth } from "./integrations/integration-health.ts";
export type { SecretRecord } from "./integrations/integration-secrets.ts";
export type { IntegrationRecord } from "./integrations/integration-views.ts";
export type { TokenValidity } from "./registration/registration.service.ts";
export type { PublicServer, ServerRecord } from "./servers/server-record.ts";
export type { DashboardStats } from "./stats/stats.service.ts";
export type { TokenVerdict } from "./tokens/token-inspector.ts";
export type { TokenRecord } from "./tokens/tokens.service.ts";

/** A catalog entry as `GET /api/admin/integrations?view=catalog` lists it. */
export type CatalogEntry = ReturnType<typeof publicEntry>;
/** `GET /api/admin/integrations/:id`: the record with its generated files. */
export type IntegrationDetail = Awaited<ReturnType<IntegrationsService["get"]>>;
