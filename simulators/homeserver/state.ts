import { createHash, randomBytes } from "node:crypto";
import { AppserviceConfigError, type AppserviceRecord, isExclusiveUser, isInterestedInUser } from "./appservices.ts";
import type { RateLimitSettings, ResolvedOptions } from "./options.ts";
import { LETTERS, randomString } from "./random-string.ts";
import type { Limiters } from "./rate-limit.ts";
import type { TokenStore } from "./token-store.ts";
import type { UiaSessions } from "./uia-session.ts";

/** One local account. */
export interface UserRecord {
  userId: string;
  localpart: string;
  displayName?: string;
  /** Profile `avatar_url` (an `mxc://` URI), unset by default. */
  avatarUrl?: string;
  admin: boolean;
  /** Milliseconds since the epoch (Synapse's `creation_ts` is in seconds; the simulator keeps ms). */
  createdAt: number;
  passwordHash?: string;
}

/** An access token's owner, as Synapse's `access_tokens` table maps it. */
export interface AccessTokenRecord {
  userId: string;
  deviceId?: string;
  /** Set when the request was authenticated with an appservice's `as_token` (which has no device). */
  appserviceId?: string;
}

/** One handled request, for tests. The path has no query string (it can carry tokens). */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
}

/** Answers held back until a test releases them (`HomeserverSimulator.holdResponses`). */
export interface ResponseHold {
  readonly match: (request: { method: string; path: string }) => boolean;
  /** Answers parked so far. */
  parked: number;
  readonly released: Promise<void>;
}

/** Settings that can change while the server runs. */
export interface MutableSettings {
  delegatedAuth: boolean;
  rateLimit: RateLimitSettings | false;
}

/** Everything the route modules of one simulated server share. */
export interface SimulatorContext {
  readonly options: ResolvedOptions;
  readonly state: HomeserverState;
  readonly tokens: TokenStore;
  readonly sessions: UiaSessions;
  readonly limiters: Limiters;
}

/** A salted SHA-256 stand-in for Synapse's bcrypt hash (nothing here verifies passwords). */
export function hashPassword(password: string): string {
  const salt = randomBytes(8).toString("hex");
  return `sha256$${salt}$${createHash("sha256").update(`${salt}:${password}`).digest("hex")}`;
}

/**
 * Users, access tokens and appservice namespaces of one simulated homeserver. One instance per server: nothing is
 * shared between simulators in the same process.
 */
export class HomeserverState {
  /** Keyed by the lower-cased user ID: Synapse looks users up case-insensitively (`get_users_by_id_case_insensitive`). */
  private readonly userRows = new Map<string, UserRecord>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  private readonly namespaces: RegExp[] = [];
  /** Loaded registrations (`app_service_config_files`), in load order. */
  private readonly appserviceRows: AppserviceRecord[] = [];
  readonly requestLog: RequestLogEntry[] = [];
  readonly holds = new Set<ResponseHold>();
  private nextGenerated = 1;

  constructor(
    readonly serverName: string,
    private readonly now: () => number,
    readonly settings: MutableSettings,
  ) {}

  userId(localpart: string): string {
    return `@${localpart}:${this.serverName}`;
  }

  users(): UserRecord[] {
    return [...this.userRows.values()];
  }

  findUser(userId: string): UserRecord | undefined {
    return this.userRows.get(userId.toLowerCase());
  }

  /** Stores a new account; the caller has checked the name. Synapse's default display name is the localpart. */
  addUser(localpart: string, options: { admin?: boolean; passwordHash?: string; displayName?: string } = {}): UserRecord {
    const userId = this.userId(localpart);
    if (this.findUser(userId)) throw new Error(`user ${userId} already exists`);
    const user: UserRecord = {
      userId,
      localpart,
      displayName: options.displayName ?? localpart,
      admin: options.admin ?? false,
      createdAt: this.now(),
      ...(options.passwordHash === undefined ? {} : { passwordHash: options.passwordHash }),
    };
    this.userRows.set(userId.toLowerCase(), user);
    return user;
  }

  /**
   * A new device and access token for a user, shaped like Synapse's (`syt_<base64 localpart>_<random>_<check>`,
   * device IDs of 10 upper-case letters).
   */
  issueAccessToken(userId: string, deviceId?: string, fixedToken?: string): { accessToken: string; deviceId: string } {
    const device = deviceId ?? randomString(10).toUpperCase();
    const localpart = userId.slice(1, userId.indexOf(":"));
    const accessToken =
      fixedToken ??
      `syt_${Buffer.from(localpart).toString("base64url")}_${randomString(20)}_${randomString(6, `${LETTERS}0123456789`)}`;
    this.accessTokens.set(accessToken, { userId, deviceId: device });
    return { accessToken, deviceId: device };
  }

  /** `generate_user_id`: the next free numeric localpart, for registrations that give no username. */
  nextGeneratedLocalpart(): string {
    while (this.findUser(this.userId(String(this.nextGenerated)))) this.nextGenerated++;
    return String(this.nextGenerated++);
  }

  /** An appservice's exclusive user namespace. Python's `re.match`: anchored at the start, not at the end. */
  addExclusiveNamespace(regex: string): void {
    this.namespaces.push(new RegExp(`^(?:${regex})`));
  }

  /**
   * `check_user_id_not_appservice_exclusive`: an anonymous exclusive namespace, or an exclusive namespace (or the
   * sender) of a loaded appservice other than `allowed`.
   */
  isExclusive(userId: string, allowed?: AppserviceRecord): boolean {
    if (this.namespaces.some((namespace) => namespace.test(userId))) return true;
    return this.appserviceRows.some(
      (service) => service !== allowed && isInterestedInUser(service, userId) && isExclusiveUser(service, userId),
    );
  }

  appservices(): AppserviceRecord[] {
    return [...this.appserviceRows];
  }

  /** `load_appservices`: a registration whose `id` or `as_token` another one already uses is refused. */
  addAppservice(service: AppserviceRecord): void {
    const sameId = this.appserviceRows.find((other) => other.id === service.id);
    if (sameId) throw new AppserviceConfigError(`Cannot reuse ID across application services: ${service.id}`);
    if (this.appserviceRows.some((other) => other.asToken === service.asToken)) {
      throw new AppserviceConfigError("Cannot reuse as_token across application services");
    }
    this.appserviceRows.push(service);
  }

  /** Removes a registration by id (a file taken out of `app_service_config_files` and a restart); true when found. */
  removeAppservice(id: string): boolean {
    const index = this.appserviceRows.findIndex((service) => service.id === id);
    if (index < 0) return false;
    this.appserviceRows.splice(index, 1);
    return true;
  }

  /** `get_app_service_by_token`. */
  appserviceByToken(token: string): AppserviceRecord | undefined {
    return this.appserviceRows.find((service) => service.asToken === token);
  }
}
