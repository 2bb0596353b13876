import { request } from "../../../common/http.ts";
import type {
  AuthStatus,
  DetailedHealth,
  Health,
  LogLevel,
  LogPage,
  MetricsSnapshot,
  RecoverySettings,
  SystemInfo,
} from "./types.ts";

/** `/api/health` answers 503 with the same record when unhealthy: that is data, not a failure. */
export async function getHealth(signal?: AbortSignal): Promise<Health> {
  const response = await fetch("api/health", { signal, headers: { Accept: "application/json" } });
  if (response.status !== 200 && response.status !== 503) {
    return request<Health>("api/health", { signal });
  }
  return (await response.json()) as Health;
}

export const detailedHealth = (signal?: AbortSignal) => request<DetailedHealth>("api/health/detailed", { signal });
export const getMetrics = (signal?: AbortSignal) => request<MetricsSnapshot>("api/metrics", { signal });
export const systemInfo = (signal?: AbortSignal) => request<SystemInfo>("api/system/info", { signal });

export function listLogs(query: { levels: LogLevel[]; search: string; limit: number }, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.levels.length > 0) params.set("level", query.levels.join(","));
  if (query.search) params.set("search", query.search);
  return request<LogPage>(`api/logs?${params}`, { signal });
}
export const clearLogs = () => request<{ cleared: number }>("api/logs", { method: "DELETE" });

export const getAuth = (signal?: AbortSignal) => request<AuthStatus>("api/settings/auth", { signal });
export const setAuth = (username: string, password: string) =>
  request<AuthStatus>("api/settings/auth", { method: "PUT", body: { username, password } });
export const clearAuth = () => request<AuthStatus>("api/settings/auth", { method: "DELETE" });

export const getRecovery = (signal?: AbortSignal) => request<RecoverySettings>("api/settings/recovery", { signal });
export const setRecovery = (settings: RecoverySettings) =>
  request<RecoverySettings>("api/settings/recovery", { method: "PUT", body: settings });
