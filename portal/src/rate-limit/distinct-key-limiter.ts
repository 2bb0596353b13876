/** At most `limit` distinct members per group within `windowMs`. */
export interface DistinctRule {
  readonly limit: number;
  readonly windowMs: number;
  /** Groups kept at most (one per client IP); the least recently active go first beyond. */
  readonly maxGroups: number;
}

/**
 * Counts the distinct members of each group in a sliding window: e.g. the accounts a client IP failed to log in to.
 * A member already counted stays allowed (its own limit governs it); a new one is refused while the group holds
 * `limit` recent members. So a flood against one account from a shared address (a NAT, a proxy the portal does not
 * trust) uses one slot and locks nobody else out, while trying many accounts from one address stays bounded.
 */
export class DistinctKeyLimiter {
  /** group → member → time counted; insertion order is recency order for both maps. */
  private readonly groups = new Map<string, Map<string, number>>();

  constructor(
    readonly rule: DistinctRule,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until `group` may add `member`; 0 when it may now (also when `member` is counted already). */
  wait(group: string, member: string): number {
    const now = this.now();
    const members = this.recent(group, now);
    if (!members || members.has(member) || members.size < this.rule.limit) return 0;
    const oldest = members.values().next().value ?? now;
    return Math.max(1, oldest + this.rule.windowMs - now);
  }

  /** Counts `member` for `group` (again: its time is renewed). */
  add(group: string, member: string): void {
    const now = this.now();
    const members = this.recent(group, now) ?? new Map<string, number>();
    members.delete(member);
    members.set(member, now);
    this.groups.delete(group);
    this.groups.set(group, members);
    this.trim(now);
  }

  /** Takes `member` back from `group` (the client proved it owns the account). */
  remove(group: string, member: string): void {
    const members = this.groups.get(group);
    members?.delete(member);
    if (members?.size === 0) this.groups.delete(group);
  }

  /** Groups currently remembered (for tests of the memory bound). */
  get size(): number {
    return this.groups.size;
  }

  private recent(group: string, now: number): Map<string, number> | undefined {
    const members = this.groups.get(group);
    if (!members) return undefined;
    for (const [member, time] of members) {
      if (time > now - this.rule.windowMs) break;
      members.delete(member);
    }
    if (members.size > 0) return members;
    this.groups.delete(group);
    return undefined;
  }

  private trim(now: number): void {
    if (this.groups.size <= this.rule.maxGroups) return;
    for (const group of [...this.groups.keys()]) this.recent(group, now);
    for (const group of this.groups.keys()) {
      if (this.groups.size <= this.rule.maxGroups) break;
      this.groups.delete(group);
    }
  }
}
