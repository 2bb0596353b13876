import {
  type AppserviceCheck,
  type AssetPurpose,
  type AssetRecord,
  type AuditEntry,
  type BotDetail,
  type BotRecord,
  type BotSetting,
  type BotTemplate,
  type CatalogEntry,
  type ConfigField,
  checkBotSettings,
  type DashboardStats,
  type EntryField,
  FEATURE_KEYS,
  type FeatureRecord as FeatureToggle,
  type DiagnosticsResult as HomeserverDiagnostics,
  type IntegrationDetail,
  type IntegrationHealth,
  type IntegrationRecord,
  type IntegrationType,
  type ProfileRecord,
  type ProfileSync,
  type RoomAssignmentRecord as RoomAssignment,
  type SecretRecord,
  type ServerCheckCode,
  type IntegrationDiagnostics as ServerIntegrationDiagnostics,
  type ServerRecord,
  type SettingProblem,
  type SettingProblems,
  type TokenCheck,
  type TokenRecord,
} from "../../../../portal/src/contract.ts";
import type { RequestOptions } from "../../../common/http.ts";
import { ApiError, call, query } from "../api/client.ts";
import type { Session, SessionUser } from "../api/public-types.ts";
import { session } from "./session.ts";

// The response shapes are the portal's own types, from its contract (`portal/src/contract.ts`; types are erased from
// the bundle), so `tsc` flags any drift between the server and the console. Only what the console shows differently
// is derived here.
export type {
  AppserviceCheck,
  AuditEntry,
  BotDetail,
  BotRecord,
  BotSetting,
  BotTemplate,
  CatalogEntry,
  ConfigField,
  DashboardStats,
  EntryField,
  FeatureToggle,
  HomeserverDiagnostics,
  IntegrationDetail,
  IntegrationHealth,
  IntegrationRecord,
  IntegrationType,
  ProfileSync,
  RoomAssignment,
  SecretRecord,
  ServerRecord,
  SettingProblem,
  SettingProblems,
  TokenCheck,
  TokenRecord,
};
/** An asset (the server types `purpose` as a string; it only stores the four purposes its upload route accepts). */
export type BrandingAsset = Omit<AssetRecord, "purpose"> & { purpose: AssetPurpose };
export type BrandingProfile = Omit<ProfileRecord, "assets"> & { assets: BrandingAsset[] };
export type GeneratedFileView = IntegrationDetail["files"][number];
/** The diagnostics, with the per-integration and per-bot health entries (loosely typed by the server) as shown. */
export type IntegrationDiagnostics = Omit<ServerIntegrationDiagnostics, "integrationHealth" | "botHealth"> & {
  integrationHealth: Record<string, { name?: string; healthy?: boolean; errors?: string[] } & Record<string, unknown>>;
  botHealth: Record<string, { displayName?: string; healthy?: boolean; errors?: string[] } & Record<string, unknown>>;
};

/** Admin calls: a 401 means the session ended (expired, revoked, portal restarted): back to the login form. */
async function admin<T>(path: string, options?: RequestOptions): Promise<T> {
  try {
    return await call<T>(path, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) session.set((s) => ({ ...s, state: "out", expired: true }));
    throw error;
  }
}

const send = <T>(method: string, path: string, body?: unknown) => admin<T>(path, { method, body });

// ---------- auth ----------
export const login = (email: string, password: string) =>
  call<{ authenticated: true; user: SessionUser }>("api/auth/login", { method: "POST", body: { email, password } });
export const logout = () => call<{ authenticated: false }>("api/auth/logout", { method: "POST" });
export const fetchSession = () => call<Session>("api/auth/session");

// ---------- servers ----------
export type ServerAction = "enable" | "disable" | "set_default" | "diagnostics";

export const listServers = () => admin<{ servers: ServerRecord[] }>("api/admin/servers").then((r) => r.servers);
export const getServer = (id: string) => admin<{ server: ServerRecord }>(`api/admin/servers/${id}`).then((r) => r.server);
/**
 * Adds a server. The portal first checks that its homeserver answers and takes the admin token (422 with one of
 * SERVER_CHECK_CODES otherwise); `saveAnyway` stores it without that check.
 */
export const createServer = (body: Record<string, unknown>, saveAnyway = false) =>
  send<{ server: ServerRecord; diagnostics?: HomeserverDiagnostics }>(
    "POST",
    `api/admin/servers${query({ saveAnyway: saveAnyway ? "true" : undefined })}`,
    body,
  );
/** The refusals of the check on save that "Save anyway" may override. */
export const SERVER_CHECK_CODES: readonly ServerCheckCode[] = [
  "HOMESERVER_UNREACHABLE",
  "ADMIN_API_UNREACHABLE",
  "ADMIN_TOKEN_REFUSED",
  "SERVER_NAME_MISMATCH",
  "MAS_UNREACHABLE",
  "MAS_CLIENT_REFUSED",
  "MAS_SCOPE_REFUSED",
  "MAS_ADMIN_API_UNREACHABLE",
];
export const updateServer = (id: string, body: Record<string, unknown>) =>
  send<{ server: ServerRecord }>("PUT", `api/admin/servers/${id}`, body).then((r) => r.server);
export const serverAction = (id: string, action: ServerAction) =>
  send<{ server: ServerRecord; diagnostics?: HomeserverDiagnostics }>("PATCH", `api/admin/servers/${id}`, { action });
export const rotateServerToken = (id: string, adminToken: string) =>
  send<{ server: ServerRecord }>("PATCH", `api/admin/servers/${id}`, { action: "rotate_token", adminToken });
export const rotateMasSecret = (id: string, masClientSecret: string) =>
  send<{ server: ServerRecord }>("PATCH", `api/admin/servers/${id}`, { action: "rotate_mas_secret", masClientSecret });
export const deleteServer = (id: string) => send<{ deleted: true }>("DELETE", `api/admin/servers/${id}`);

// ---------- tokens ----------
export type TokenStatus = "valid" | "expired" | "exhausted" | "disabled";

/** The portal's rule (tokens/token-state.ts): disabled before expired before exhausted. */
export function tokenStatus(token: TokenRecord, now = Date.now()): TokenStatus {
  if (token.disabled) return "disabled";
  if (token.valid) return "valid";
  if (token.expiry_time && token.expiry_time < now) return "expired";
  return "exhausted";
}

const tokenPath = (token: string, serverId: string) => `api/admin/tokens/${encodeURIComponent(token)}${query({ serverId })}`;
export const listTokens = (serverId: string) =>
  admin<{ tokens: TokenRecord[] }>(`api/admin/tokens${query({ serverId })}`).then((r) => r.tokens);
export const createToken = (serverId: string, body: Record<string, unknown>) =>
  send<{ token: TokenRecord }>("POST", `api/admin/tokens${query({ serverId })}`, body).then((r) => r.token);
export const updateToken = (serverId: string, token: string, body: Record<string, unknown>) =>
  send<{ token: TokenRecord }>("PUT", tokenPath(token, serverId), body).then((r) => r.token);
export const disableToken = (serverId: string, token: string) =>
  send<{ token: TokenRecord }>("PATCH", tokenPath(token, serverId)).then((r) => r.token);
/** MAS servers: unrevoke (PATCH `{action: "enable"}`). */
export const enableToken = (serverId: string, token: string) =>
  send<{ token: TokenRecord }>("PATCH", tokenPath(token, serverId), { action: "enable" }).then((r) => r.token);
export const deleteToken = (serverId: string, token: string) => send<{ deleted: true }>("DELETE", tokenPath(token, serverId));
export const getToken = (serverId: string, token: string) =>
  admin<{ token: TokenRecord }>(tokenPath(token, serverId)).then((r) => r.token);
/** The most tokens one batch makes (portal: tokens.schema.ts MAX_BATCH). */
export const MAX_BATCH = 200;
export const createTokenBatch = (
  serverId: string,
  body: { count: number; label: string; note?: string; expiry_time: number | null },
) => send<{ label: string; tokens: TokenRecord[] }>("POST", `api/admin/tokens/batch${query({ serverId })}`, body);

// ---------- stats, diagnostics, audit ----------
export const getStats = (serverId: string) => admin<DashboardStats>(`api/admin/stats${query({ serverId })}`);

export const listAudit = (filter: { serverId?: string; action?: string; actor?: string; limit: number; offset: number }) =>
  admin<{ logs: AuditEntry[]; total: number }>(`api/admin/audit${query(filter)}`);

// ---------- branding ----------
export const listProfiles = () => admin<{ profiles: BrandingProfile[] }>("api/admin/branding").then((r) => r.profiles);
export const getProfile = (id: string) => admin<{ profile: BrandingProfile }>(`api/admin/branding/${id}`).then((r) => r.profile);
export const createProfile = (name: string) =>
  send<{ profile: BrandingProfile }>("POST", "api/admin/branding", { name }).then((r) => r.profile);
export const updateProfile = (id: string, body: Record<string, unknown>) =>
  send<{ profile: BrandingProfile }>("PUT", `api/admin/branding/${id}`, body).then((r) => r.profile);
export const profileAction = (id: string, action: "publish" | "reset") =>
  send<{ profile: BrandingProfile }>("PATCH", `api/admin/branding/${id}`, { action }).then((r) => r.profile);
export const deleteProfile = (id: string) => send<{ deleted: true }>("DELETE", `api/admin/branding/${id}`);
export function uploadAsset(id: string, purpose: AssetPurpose, file: File) {
  const form = new FormData();
  form.set("purpose", purpose);
  form.set("file", file);
  return admin<{ asset: BrandingAsset; replaced: string | null }>(`api/admin/branding/${id}/assets`, {
    method: "POST",
    body: form,
  });
}
export const deleteAsset = (id: string, assetId: string) =>
  send<{ deleted: true }>("DELETE", `api/admin/branding/${id}/assets/${assetId}`);

// ---------- bots ----------
/** The bot features, in the portal's order; the portal's own check of a bot's settings. */
export { checkBotSettings, FEATURE_KEYS };

export const listBotTemplates = () =>
  admin<{ templates: BotTemplate[] }>("api/admin/bots?view=templates").then((r) => r.templates);
export const listBots = (serverId: string) =>
  admin<{ bots: BotRecord[] }>(`api/admin/bots${query({ serverId })}`).then((r) => r.bots);
export const getBot = (id: string) => admin<{ bot: BotDetail }>(`api/admin/bots/${id}`).then((r) => r.bot);
export const createBot = (serverId: string, body: Record<string, unknown>) =>
  send<{ bot: BotRecord }>("POST", `api/admin/bots${query({ serverId })}`, body).then((r) => r.bot);
export const updateBot = (id: string, body: Record<string, unknown>) =>
  send<{ bot: BotRecord; profileSync?: ProfileSync }>("PUT", `api/admin/bots/${id}`, body);
export const botAction = (id: string, action: "activate" | "deactivate") =>
  send<{ bot: BotRecord }>("PATCH", `api/admin/bots/${id}`, { action });
export const setBotToken = (id: string, accessToken: string) =>
  send<{ bot: BotRecord; tokenCheck?: TokenCheck; profileSync?: ProfileSync | { skipped: string } }>(
    "PATCH",
    `api/admin/bots/${id}`,
    { action: "set_token", accessToken },
  );
export const deleteBot = (id: string) => send<{ deleted: true }>("DELETE", `api/admin/bots/${id}`);
export const assignRoom = (id: string, body: { roomId: string; roomAlias?: string | null }) =>
  send<{ room: RoomAssignment }>("POST", `api/admin/bots/${id}/rooms`, body).then((r) => r.room);
export const unassignRoom = (id: string, assignmentId: string) =>
  send<{ deleted: true }>("DELETE", `api/admin/bots/${id}/rooms/${assignmentId}`);
export const setFeature = (
  id: string,
  body: { featureKey: string; enabled: boolean; scope: "global" | "room"; scopeId: string | null },
) => send<{ feature: FeatureToggle }>("PUT", `api/admin/bots/${id}/features`, body).then((r) => r.feature);

// ---------- integrations ----------
export const listCatalog = (filter: { type?: string; search?: string }) =>
  admin<{ catalog: CatalogEntry[] }>(`api/admin/integrations${query({ view: "catalog", ...filter })}`).then((r) => r.catalog);
export const listIntegrations = (serverId: string) =>
  admin<{ integrations: IntegrationRecord[] }>(`api/admin/integrations${query({ serverId })}`).then((r) => r.integrations);
export const getIntegration = (id: string) =>
  admin<{ integration: IntegrationDetail }>(`api/admin/integrations/${id}`).then((r) => r.integration);
export const installIntegration = (serverId: string, catalogId: string) =>
  send<{ integration: IntegrationDetail; deployment: { mode: string; reason: string } }>(
    "POST",
    `api/admin/integrations${query({ serverId })}`,
    { catalogId },
  );
export const updateIntegrationConfig = (id: string, config: Record<string, unknown>) =>
  send<{ integration: IntegrationDetail }>("PUT", `api/admin/integrations/${id}`, { config }).then((r) => r.integration);
export const integrationAction = (id: string, action: "enable" | "disable" | "health_check") =>
  send<{ integration: IntegrationRecord; health?: IntegrationHealth }>("PATCH", `api/admin/integrations/${id}`, { action });
export const deleteIntegration = (id: string) => send<{ deleted: true }>("DELETE", `api/admin/integrations/${id}`);
export const listSecrets = (id: string) =>
  admin<{ secrets: SecretRecord[] }>(`api/admin/integrations/${id}/secrets`).then((r) => r.secrets);
export const setSecret = (id: string, key: string, value: string) =>
  send<{ secret: SecretRecord; rotated: boolean }>("POST", `api/admin/integrations/${id}/secrets`, { key, value });
export const deleteSecret = (id: string, secretId: string) =>
  send<{ deleted: true }>("DELETE", `api/admin/integrations/${id}/secrets/${secretId}`);
export const integrationDiagnostics = (serverId: string) =>
  admin<{ diagnostics: IntegrationDiagnostics }>(`api/admin/integrations/diagnostics${query({ serverId })}`).then(
    (r) => r.diagnostics,
  );
