import type { Migration } from "../migrate.ts";
import { usersAndSessions } from "./0001-users-and-sessions.ts";
import { servers } from "./0002-servers.ts";
import { tokenMetadata } from "./0003-token-metadata.ts";
import { auditLog } from "./0004-audit-log.ts";
import { registrations } from "./0005-registrations.ts";
import { branding } from "./0006-branding.ts";
import { bots } from "./0007-bots.ts";
import { integrations } from "./0008-integrations.ts";
import { auditCounts } from "./0009-audit-counts.ts";
import { auditNames } from "./0010-audit-names.ts";
import { serverKind } from "./0011-server-kind.ts";
import { sharedState } from "./0012-shared-state.ts";
import { brandingAssetContent } from "./0013-branding-asset-content.ts";

/** Every schema step, in order. Append only: never edit or reorder an entry that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  usersAndSessions,
  servers,
  tokenMetadata,
  auditLog,
  registrations,
  branding,
  bots,
  integrations,
  auditCounts,
  auditNames,
  serverKind,
  sharedState,
  brandingAssetContent,
];
