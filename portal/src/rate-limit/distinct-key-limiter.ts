import type { RateLimitRepository, Slot } from "./rate-limit.repository.ts";

/** At most `limit` distinct members per group within `windowMs`. */
export interface DistinctRule {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Counts the distinct members of each group in a sliding window: e.g. the accounts a client IP failed to log in to.
 * A member already counted stays allowed (its own limit governs it); a new one is refused while the group holds
 * `limit` recent members. So a flood against one account from a shared address (a NAT, a proxy the portal does not
 * trust) uses one slot and locks nobody else out, while trying many accounts from one address stays bounded.
 * Members hold slots in the database (`rate_limit_slots`), shared by every portal instance: a new member counts only
 * by taking a free slot in one statement.
 */
export class DistinctKeyLimiter {
  private nextSweep = 0;

  constructor(
    readonly rule: DistinctRule,
    private readonly store: RateLimitRepository,
    private readonly bucket: string,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until `group` may add `member`; 0 when it may now (also when `member` is counted already). */
  async wait(group: string, member: string): Promise<number> {
    const now = this.now();
    const live = await this.live(group, now);
    if (live.some((slot) => slot.member === member) || live.length < this.rule.limit) return 0;
    return this.waitOf(live, now);
  }

  /**
   * Counts `member` for `group` (again, when it is counted already: its time is renewed), or returns the wait in ms
   * without counting when the group is full. `added` tells whether the member is new to the group.
   */
  async claim(group: string, member: string): Promise<{ wait: number; added: boolean }> {
    for (let round = 0; round < 3; round++) {
      const now = this.now();
      const live = await this.live(group, now);
      if (live.some((slot) => slot.member === member) && (await this.store.renew(this.bucket, group, member, now))) {
        return { wait: 0, added: false };
      }
      if (live.length >= this.rule.limit) return { wait: this.waitOf(live, now), added: false };
      const taken = new Set(live.map((slot) => slot.slot));
      for (let slot = 0; slot < this.rule.limit; slot++) {
        if (taken.has(slot)) continue;
        if (await this.store.claim(this.bucket, group, slot, member, now, now - this.rule.windowMs)) {
          await this.sweep(now);
          return { wait: 0, added: true };
        }
      }
    }
    return { wait: Math.max(1, await this.wait(group, member)), added: false };
  }

  /** Takes `member` back from `group` (the client proved it owns the account). */
  async remove(group: string, member: string): Promise<void> {
    await this.store.free(this.bucket, group, member);
  }

  private async live(group: string, now: number): Promise<Slot[]> {
    const cutoff = now - this.rule.windowMs;
    return (await this.store.slots(this.bucket, group)).filter((slot) => slot.at > cutoff && slot.slot < this.rule.limit);
  }

  private waitOf(live: Slot[], now: number): number {
    return Math.max(1, Math.min(...live.map((slot) => slot.at)) + this.rule.windowMs - now);
  }

  private async sweep(now: number): Promise<void> {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.rule.windowMs;
    await this.store.sweepSlots(this.bucket, now - this.rule.windowMs);
  }
}
