import { call, query } from "./client.ts";
import type { PublicBranding, PublicServer, Session, SignUpInput, TokenValidityAnswer, UsernameVerdict } from "./public-types.ts";

/** Which server a sign-up page is for: by slug, by the page's domain, or the default (none given). */
export interface ServerSelector {
  serverId?: string;
  slug?: string;
  domain?: string;
}

export const resolveServer = (selector: ServerSelector, signal?: AbortSignal) =>
  call<{ server: PublicServer }>(`api/server/resolve${query({ ...selector })}`, { signal }).then((r) => r.server);

export const getBranding = (selector: ServerSelector, signal?: AbortSignal) =>
  call<{ branding: PublicBranding }>(`api/branding${query({ ...selector })}`, { signal }).then((r) => r.branding);

export const getSession = (signal?: AbortSignal) => call<Session>("api/auth/session", { signal });

export const validateToken = (token: string, serverId: string, signal?: AbortSignal) =>
  call<TokenValidityAnswer>("api/register/validate-token", { method: "POST", body: { token, serverId }, signal });

export const usernameAvailable = (username: string, serverId: string, signal?: AbortSignal) =>
  call<UsernameVerdict>(`api/register/username-available${query({ username, serverId })}`, { signal });

export const register = (input: SignUpInput) =>
  call<{ success: true; userId: string }>("api/register", { method: "POST", body: input });
