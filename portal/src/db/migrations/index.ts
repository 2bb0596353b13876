import type { Migration } from "../migrate.ts";
import { usersAndSessions } from "./0001-users-and-sessions.ts";
import { servers } from "./0002-servers.ts";
import { tokenMetadata } from "./0003-token-metadata.ts";
import { auditLog } from "./0004-audit-log.ts";
import { registrations } from "./0005-registrations.ts";

/**
 * Every schema step, in order. Append only: never edit or reorder an entry that has shipped. Branding profiles
 * and assets, bots (rooms, features) and integrations (secrets, snapshots) come next as new entries.
 */
export const MIGRATIONS: readonly Migration[] = [usersAndSessions, servers, tokenMetadata, auditLog, registrations];
