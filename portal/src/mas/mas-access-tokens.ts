/** An access token from MAS's token endpoint, with when the portal stops using it. */
export interface CachedAccessToken {
  readonly token: string;
  /** When the portal asks for a new one (ms, the portal's clock): before MAS's expiry, see {@link refreshAt}. */
  readonly refreshAt: number;
  /** How the client authenticated when this token was granted: the next grant tries it first. */
  readonly method: "client_secret_basic" | "client_secret_post";
}

/**
 * When a token granted at `grantedAt` for `expiresIn` seconds is replaced: once four fifths of its life have passed
 * (60 s early for MAS's default 300 s), so that a call never starts with a token about to expire on the way. A
 * token without `expires_in` is kept for 60 s.
 */
export function refreshAt(grantedAt: number, expiresIn: number | undefined): number {
  const lifetimeMs = (expiresIn ?? 60) * 1000;
  return grantedAt + Math.floor(lifetimeMs * 0.8);
}

/**
 * The MAS access tokens of the portal, one per managed server (and version of its MAS settings: a changed URL, client
 * or secret never reuses a token granted for the old ones). Every client-credentials grant opens a new session in MAS,
 * so the token is cached and shared, concurrent callers share one grant, and a new one is asked for only when it is
 * due or MAS refused it (`drop`). Tokens live in memory only.
 */
export class MasAccessTokens {
  private readonly tokens = new Map<string, { version: string; token: CachedAccessToken }>();
  private readonly grants = new Map<string, { version: string; promise: Promise<CachedAccessToken> }>();

  constructor(private readonly now: () => number) {}

  /** The cached token of `key` if it was granted for `version` and is not due, else the result of one shared `grant()`. */
  async get(
    key: string,
    version: string,
    grant: (previous?: CachedAccessToken) => Promise<CachedAccessToken>,
  ): Promise<CachedAccessToken> {
    const cached = this.tokens.get(key);
    if (cached && cached.version === version && this.now() < cached.token.refreshAt) return cached.token;
    const running = this.grants.get(key);
    if (running && running.version === version) return running.promise;
    const promise = grant(cached?.version === version ? cached.token : undefined).then(
      (token) => {
        if (this.grants.get(key)?.promise === promise) this.grants.delete(key);
        this.tokens.set(key, { version, token });
        return token;
      },
      (error: unknown) => {
        if (this.grants.get(key)?.promise === promise) this.grants.delete(key);
        throw error;
      },
    );
    this.grants.set(key, { version, promise });
    return promise;
  }

  /** MAS refused `token` (expired early, session finished): the next `get` grants anew, unless another did already. */
  drop(key: string, token: string): void {
    const cached = this.tokens.get(key);
    if (cached?.token.token === token) this.tokens.delete(key);
  }

  /** Forgets a server's token (its MAS settings changed or it was deleted). */
  forget(key: string): void {
    this.tokens.delete(key);
    this.grants.delete(key);
  }
}
