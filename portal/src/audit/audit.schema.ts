import * as v from "valibot";
import { objectMessage } from "../schema-messages.ts";

const wholeNumber = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

/**
 * `GET /api/admin/audit`: `limit` 1-200 (default 50), `offset` ≥ 0 (default 0), optional `serverId`; the portal's
 * own filters `action` (an action such as `token.disabled`, or a prefix such as `token` for every `token.*`) and
 * `actor` (an e-mail, exact, case-insensitive).
 */
export const AuditQuery = v.object(
  {
    serverId: v.optional(v.pipe(v.string(), v.nonEmpty("serverId must not be empty"), v.maxLength(100))),
    action: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(100, "action must be at most 100 characters"),
        v.regex(/^[a-z]+(?:\.[a-z_]+)*$/, "action must be an action such as token.disabled, or a prefix such as token"),
      ),
    ),
    actor: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("actor must not be empty"), v.maxLength(254), v.toLowerCase())),
    limit: v.optional(wholeNumber("limit", 1, 200), "50"),
    offset: v.optional(wholeNumber("offset", 0, 1_000_000_000), "0"),
  },
  objectMessage,
);
