import { createHash, randomBytes, randomUUID } from "node:crypto";
import { BoundedMemo } from "../../../lib/bounded-memo.ts";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { LoginAudit } from "../audit/login-audit.ts";
import { hashPassword, needsRehash, type ScryptParams, verifyPassword } from "../crypto/password-hash.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { LoginLimits } from "../rate-limit/login-limits.ts";
import type { AuthRepository, UserRow } from "./auth.repository.ts";
import { DEVICE_TTL_MS, openDeviceCookie, sealDeviceCookie } from "./device-cookie.ts";
import { openCookie, SESSION_TTL_MS, sealCookie } from "./session-cookie.ts";

/** The signed-in administrator as the API shows it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
}

export const GLOBAL_ADMIN = "global_admin";

const toSessionUser = (row: UserRow): SessionUser => ({ id: row.id, email: row.email, name: row.name, role: row.role });
const hashSessionId = (sid: string) => createHash("sha256").update(sid).digest("hex");

/** Users, password checks and server-side sessions carried by an encrypted cookie. */
export class AuthService {
  private dummyHash: Promise<string> | undefined;
  /**
   * Session cookies once opened, by exact value: opening one (AES-256-GCM, its JSON, the SHA-256 of the session id)
   * was a sixth of a token-list request's CPU (docs/PERFORMANCE.md, "Portal token list, closed loop"). A value always
   * opens to the same payload under the same key; expiry and revocation are still checked on every request. Forged
   * values do not open, so they are not kept.
   */
  private readonly opened = new BoundedMemo<string, { exp: number; idHash: string }>();
  private readonly openSession = (cookie: string) => {
    const payload = openCookie(this.box, cookie);
    return payload && { exp: payload.exp, idHash: hashSessionId(payload.sid) };
  };

  constructor(
    private readonly repository: AuthRepository,
    private readonly box: SecretBox,
    private readonly limits: LoginLimits,
    private readonly now: () => number,
    private readonly log: Logger,
    private readonly hashing: ScryptParams,
    /** Where logins are audited (successes, and failures within a budget). */
    private readonly loginAudit?: LoginAudit,
  ) {}

  /**
   * Makes sure an administrator with this e-mail exists and has this password and the global_admin role
   * (PORTAL_ADMIN_EMAIL / PASSWORD at start). A changed password ends the user's existing sessions.
   */
  async ensureAdmin(email: string, password: string, name: string): Promise<"created" | "updated" | "unchanged"> {
    const normalized = email.trim().toLowerCase();
    const nowIso = new Date(this.now()).toISOString();
    let existing = await this.repository.findUserByEmail(normalized);
    if (!existing) {
      const passwordHash = await hashPassword(password, this.hashing);
      const inserted = await this.repository.insertUserIfAbsent({
        id: randomUUID(),
        email: normalized,
        name,
        role: GLOBAL_ADMIN,
        password_hash: passwordHash,
        created_at: nowIso,
        updated_at: nowIso,
      });
      if (inserted) return "created";
      // Another portal instance on the same database created it meanwhile: check that one instead.
      existing = await this.repository.findUserByEmail(normalized);
      if (!existing) throw new Error(`the administrator ${normalized} could neither be created nor found`);
    }
    const samePassword = await verifyPassword(password, existing.password_hash);
    if (samePassword && existing.role === GLOBAL_ADMIN && !needsRehash(existing.password_hash, this.hashing)) return "unchanged";
    await this.repository.updateUser(existing.id, {
      role: GLOBAL_ADMIN,
      password_hash: samePassword ? existing.password_hash : await hashPassword(password, this.hashing),
      updated_at: nowIso,
    });
    if (!samePassword) await this.repository.deleteUserSessions(existing.id);
    return "updated";
  }

  async hasUsers(): Promise<boolean> {
    return (await this.repository.countUsers()) > 0;
  }

  /**
   * Checks e-mail and password and opens a session. Limited before any password work (rate-limit/login-limits.ts):
   * per account and per client IP, unless `deviceCookie` is this browser's valid device cookie for the account, which
   * lets the right password through a lockout someone else caused. A success renews the device cookie. Unknown
   * e-mails are limited the same way and cost the same scrypt time, so neither reveals which administrators exist.
   */
  async login(
    email: string,
    password: string,
    ip: string,
    deviceCookie?: string,
  ): Promise<{ user: SessionUser; cookie: string; maxAgeS: number; device: { cookie: string; maxAgeS: number } }> {
    const normalized = email.trim().toLowerCase();
    const device = deviceCookie === undefined ? undefined : openDeviceCookie(this.box, deviceCookie, this.now());
    let attempt: Awaited<ReturnType<LoginLimits["admit"]>>;
    try {
      attempt = await this.limits.admit(normalized, ip, device?.account === normalized ? device.id : undefined);
    } catch (error) {
      await this.loginAudit?.failed({
        ip,
        reason: "rate_limited",
        typed: normalized,
        account: async () => (await this.repository.findUserByEmail(normalized))?.email,
      });
      throw error;
    }

    const user = await this.repository.findUserByEmail(normalized);
    this.dummyHash ??= hashPassword(randomBytes(16).toString("hex"), this.hashing);
    const valid = await verifyPassword(password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !valid) {
      this.log.info({ ip, knownDevice: attempt.trusted }, "portal login refused");
      await this.loginAudit?.failed({
        ip,
        reason: user ? "wrong_password" : "unknown_account",
        typed: normalized,
        account: async () => user?.email,
      });
      throw new HttpError(401, "Invalid e-mail or password", "UNAUTHORIZED");
    }
    await attempt.succeeded();
    await this.loginAudit?.succeeded(user.email, ip);
    const now = this.now();
    if (needsRehash(user.password_hash, this.hashing)) {
      await this.repository.updateUser(user.id, {
        password_hash: await hashPassword(password, this.hashing),
        updated_at: new Date(now).toISOString(),
      });
    }
    await this.repository.deleteExpiredSessions(new Date(now).toISOString());
    const sid = randomBytes(32).toString("base64url");
    const exp = now + SESSION_TTL_MS;
    await this.repository.insertSession({
      id_hash: hashSessionId(sid),
      user_id: user.id,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(exp).toISOString(),
      ip,
    });
    this.log.info({ userId: user.id, ip, knownDevice: attempt.trusted }, "portal login");
    return {
      user: toSessionUser(user),
      cookie: sealCookie(this.box, { sid, exp }),
      maxAgeS: SESSION_TTL_MS / 1000,
      device: { cookie: sealDeviceCookie(this.box, normalized, now), maxAgeS: DEVICE_TTL_MS / 1000 },
    };
  }

  /** The user of a live session (cookie intact, not expired, not revoked), else undefined. */
  async authenticate(cookie: string): Promise<SessionUser | undefined> {
    const opened = this.opened.get(cookie, this.openSession);
    const now = this.now();
    if (!opened || opened.exp <= now) return undefined;
    const found = await this.repository.findLiveSession(opened.idHash, new Date(now).toISOString());
    return found && toSessionUser(found.user);
  }

  /** Revokes the cookie's session server-side, so a copy of the cookie is worthless from now on. */
  async logout(cookie: string): Promise<void> {
    const payload = openCookie(this.box, cookie);
    if (payload) await this.repository.deleteSession(hashSessionId(payload.sid));
  }
}
