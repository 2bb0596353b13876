import { request } from "../../../common/http.ts";
import type { ImportPreview, LockCredential, RestorePreview } from "./types.ts";

/** Backup ZIP download URL (relative; an `<a download>` follows it with the browser's credentials). */
export const backupUrl = (includeIdentity: boolean) => `api/backup/download?includeIdentity=${includeIdentity}`;
export const exportUrl = (bridgeId?: string) =>
  bridgeId ? `api/bridges/export/${encodeURIComponent(bridgeId)}` : "api/bridges/export";

function backupForm(file: File, options?: unknown): FormData {
  const form = new FormData();
  form.append("file", file);
  if (options !== undefined) form.append("options", JSON.stringify(options));
  return form;
}

export interface RestoreOptions {
  includeIdentity: boolean;
}
export const previewRestore = (file: File, options: RestoreOptions) =>
  request<RestorePreview>("api/backup/restore/preview", { method: "POST", body: backupForm(file, options) });
export const restoreBackup = (file: File, options: RestoreOptions) =>
  request<Record<string, unknown>>("api/backup/restore", { method: "POST", body: backupForm(file, options) });
export const restartHub = () => request<unknown>("api/backup/restart", { method: "POST" });

export interface ImportOptions {
  bridgeIds?: string[];
  overwriteExisting: boolean;
}
export const previewImport = (data: unknown, options: ImportOptions) =>
  request<ImportPreview>("api/bridges/import/preview", { method: "POST", body: { data, options } });
export const importBridges = (data: unknown, options: ImportOptions) =>
  request<Record<string, unknown>>("api/bridges/import", { method: "POST", body: { data, options } });

const lockPath = (entityId: string) => `api/lock-credentials/${encodeURIComponent(entityId)}`;
export const listLockCredentials = (signal?: AbortSignal) =>
  request<{ credentials: LockCredential[] }>("api/lock-credentials", { signal });
export const setLockPin = (entityId: string, pin: string, enabled: boolean) =>
  request<LockCredential>(lockPath(entityId), { method: "PUT", body: { pin, enabled } });
export const setLockEnabled = (entityId: string, enabled: boolean) =>
  request<LockCredential>(`${lockPath(entityId)}/enabled`, { method: "PATCH", body: { enabled } });
export const deleteLockCredential = (entityId: string) => request<void>(lockPath(entityId), { method: "DELETE" });
