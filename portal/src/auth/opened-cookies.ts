/** A session cookie once opened: its expiry and the hash its session row is stored under. */
export interface OpenedCookie {
  readonly exp: number;
  readonly idHash: string;
}

/**
 * Session cookies already opened, by their exact value. Every admin request carries the cookie, and opening it
 * (AES-256-GCM, the JSON inside, the SHA-256 of the session id) cost a sixth of a token-list request's CPU
 * (docs/PERFORMANCE.md, "Portal token list, closed loop"). The same value always opens to the same payload under the
 * same key, so a kept result is exact; expiry and revocation are still checked on every request (the payload's
 * `exp`, then the session row). Only cookies that opened are kept, so forged values cost their decryption each time
 * and take no room; at most `max` are kept (past that the set starts afresh).
 */
export class OpenedCookies {
  readonly #kept = new Map<string, OpenedCookie>();

  constructor(
    private readonly open: (cookie: string) => OpenedCookie | undefined,
    private readonly max = 1_000,
  ) {}

  get(cookie: string): OpenedCookie | undefined {
    const kept = this.#kept.get(cookie);
    if (kept) return kept;
    const opened = this.open(cookie);
    if (!opened) return undefined;
    if (this.#kept.size >= this.max) this.#kept.clear();
    this.#kept.set(cookie, opened);
    return opened;
  }
}
