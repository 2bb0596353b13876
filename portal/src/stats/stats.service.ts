import type { RegistrationsRepository } from "../registration/registration.repository.ts";
import type { TokensService } from "../tokens/tokens.service.ts";

/** `recentRegistrations` counts sign-ups through the portal in this window. */
export const RECENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The dashboard numbers (spec: Dashboard statistics). */
export interface DashboardStats {
  totalTokens: number;
  validTokens: number;
  expiredTokens: number;
  exhaustedTokens: number;
  disabledTokens: number;
  recentRegistrations: number;
}

/**
 * Dashboard statistics of one managed server: token counts from the homeserver's list, classified once each by the
 * portal's rule (disabled before expired before exhausted, so the four add up to the total), and sign-ups through
 * the portal in the last 7 days.
 */
export class StatsService {
  constructor(
    private readonly tokens: TokensService,
    private readonly registrations: RegistrationsRepository,
    private readonly now: () => number,
  ) {}

  async forServer(serverId: string): Promise<DashboardStats> {
    const tokens = await this.tokens.list(serverId);
    const now = this.now();
    const stats: DashboardStats = {
      totalTokens: tokens.length,
      validTokens: 0,
      expiredTokens: 0,
      exhaustedTokens: 0,
      disabledTokens: 0,
      recentRegistrations: await this.registrations.countSince(serverId, new Date(now - RECENT_WINDOW_MS).toISOString()),
    };
    for (const token of tokens) {
      if (token.disabled) stats.disabledTokens++;
      else if (token.valid) stats.validTokens++;
      else if (token.expiry_time && token.expiry_time < now) stats.expiredTokens++;
      else stats.exhaustedTokens++;
    }
    return stats;
  }
}
