import { request } from "../../../common/http.ts";
import type { EntityPage, HaStats } from "./types.ts";

export interface EntityQuery {
  search?: string;
  domain?: string;
  limit: number;
  offset: number;
}

export function listEntities(query: EntityQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.search) params.set("search", query.search);
  if (query.domain) params.set("domain", query.domain);
  return request<EntityPage>(`api/home-assistant/entities?${params}`, { signal });
}

export const listDomains = (signal?: AbortSignal) =>
  request<{ domains: { domain: string; count: number }[] }>("api/home-assistant/domains", { signal });
export const haStats = (signal?: AbortSignal) => request<HaStats>("api/home-assistant/stats", { signal });
export const refreshHa = () =>
  request<{ refreshed: boolean; entities: number }>("api/home-assistant/refresh", { method: "POST" });
export const listAreas = (signal?: AbortSignal) => request<{ id: string; name: string }[]>("api/matter/areas", { signal });
