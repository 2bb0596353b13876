import { randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** An access token MAS issued, with the session it belongs to. */
export interface AccessTokenRecord {
  token: string;
  clientId: string;
  scope: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The session was finished (an admin revoked it): the token stops working at once. */
  revoked: boolean;
}

/**
 * `TokenType::generate` (crates/data-model/src/tokens.rs): a prefix (`mat_` access, `mar_` refresh, `mpt_`
 * personal), 30 alphanumeric characters and a CRC-32 of both in base 62, six characters. The simulator's base-62
 * alphabet and padding are an approximation; nothing outside MAS checks them.
 */
export function generateToken(prefix: "mat" | "mar" | "mpt"): string {
  const base = `${prefix}_${Array.from({ length: 30 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join("")}`;
  let crc = crc32(base);
  let suffix = "";
  for (let i = 0; i < 6; i++) {
    suffix = BASE62[crc % 62] + suffix;
    crc = Math.floor(crc / 62);
  }
  return `${base}_${suffix}`;
}

/** What `TokenType::check` makes of a bearer token. */
export function tokenKind(token: string): "access" | "personal" | "other" | "malformed" {
  const match = /^(m[a-z]{2})_[A-Za-z0-9]{30}_[A-Za-z0-9]{6}$/.exec(token);
  if (!match) return "malformed";
  if (match[1] === "mat") return "access";
  if (match[1] === "mpt") return "personal";
  return "other";
}

/** The OAuth 2.0 sessions and access tokens of one simulated MAS. */
export class AccessTokens {
  private readonly tokens = new Map<string, AccessTokenRecord>();

  issue(clientId: string, scope: string[], expiresAt: number): AccessTokenRecord {
    const record: AccessTokenRecord = { token: generateToken("mat"), clientId, scope, expiresAt, revoked: false };
    this.tokens.set(record.token, record);
    return record;
  }

  find(token: string): AccessTokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** Every token issued so far (copies), oldest first. */
  all(): AccessTokenRecord[] {
    return [...this.tokens.values()].map((record) => ({ ...record, scope: [...record.scope] }));
  }

  /** Finishes the sessions of every token issued so far: they all answer 401 "Access token revoked" from now on. */
  revokeAll(): number {
    let count = 0;
    for (const record of this.tokens.values()) {
      if (!record.revoked) count++;
      record.revoked = true;
    }
    return count;
  }
}
