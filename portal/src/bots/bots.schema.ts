import * as v from "valibot";
import { objectMessage } from "../schema-messages.ts";
import { FEATURE_KEYS } from "./feature-keys.ts";

const MAX_CONFIG_BYTES = 16 * 1024;

/** A JSON object of at most 16 KiB (template-specific settings the bot runtime reads). */
export const JsonConfig = (field: string) =>
  v.pipe(
    v.custom<Record<string, unknown>>(
      (value) => typeof value === "object" && value !== null && !Array.isArray(value),
      `${field} must be a JSON object`,
    ),
    v.check(
      (value) => JSON.stringify(value).length <= MAX_CONFIG_BYTES,
      `${field} must be at most ${MAX_CONFIG_BYTES} bytes of JSON`,
    ),
  );

const DisplayName = v.pipe(
  v.string("displayName must be a string"),
  v.trim(),
  v.nonEmpty("displayName is required"),
  v.maxLength(200, "displayName must be at most 200 characters"),
);

/**
 * A bot's localpart: the spec's `[a-z0-9._=-]+`, at most 64, and what Synapse accepts for an ordinary account: not
 * starting with `_` (reserved for appservice users) and not all digits (reserved for guests).
 */
export const Localpart = v.pipe(
  v.string("localpart must be a string"),
  v.maxLength(64, "localpart must be at most 64 characters"),
  v.regex(/^[a-z0-9._=-]+$/, "localpart may only contain a-z, 0-9 and . _ = -"),
  v.check((value) => !value.startsWith("_"), "localpart must not start with _ (reserved for appservices)"),
  v.check((value) => !/^\d+$/.test(value), "localpart must not be all digits (reserved for guests)"),
);

/** An `mxc://<server>/<media id>` content URI (spec "Matrix Content (mxc://) URIs"), at most Synapse's 1000 characters. */
const AvatarUrl = v.pipe(
  v.string("avatarUrl must be a string"),
  v.maxLength(1000, "avatarUrl must be at most 1000 characters"),
  v.regex(
    /^mxc:\/\/[A-Za-z0-9.:[\]-]+\/[A-Za-z0-9_-]+$/,
    "avatarUrl must be an mxc:// content URI such as mxc://example.org/abc123",
  ),
);

/** `POST /api/admin/bots?serverId=`. */
export const CreateBotBody = v.strictObject(
  {
    templateId: v.pipe(v.string("templateId must be a string"), v.nonEmpty("templateId is required"), v.maxLength(100)),
    displayName: DisplayName,
    localpart: v.optional(Localpart),
    avatarUrl: v.optional(v.nullable(AvatarUrl)),
    config: v.optional(JsonConfig("config")),
  },
  objectMessage,
);
export type CreateBotInput = v.InferOutput<typeof CreateBotBody>;

/** `PUT /api/admin/bots/:id`: the spec's displayName and config, and the avatar (null removes it). */
export const UpdateBotBody = v.pipe(
  v.strictObject(
    {
      displayName: v.optional(DisplayName),
      config: v.optional(JsonConfig("config")),
      avatarUrl: v.optional(v.nullable(AvatarUrl)),
      localpart: v.optional(v.never("localpart cannot change: create another bot")),
      templateId: v.optional(v.never("templateId cannot change: create another bot")),
    },
    objectMessage,
  ),
  v.check((body) => Object.keys(body).length > 0, "the body names no field to update"),
);
export type UpdateBotInput = v.InferOutput<typeof UpdateBotBody>;

/** The bearer token a bot logs in with: visible ASCII without spaces (it becomes an Authorization header). */
const AccessToken = v.pipe(
  v.string("accessToken must be a string"),
  v.nonEmpty("accessToken is required"),
  v.maxLength(10000, "accessToken must be at most 10000 characters"),
  v.regex(/^[\x21-\x7e]+$/, "accessToken must be printable ASCII without spaces"),
);

export const BotActionBody = v.variant(
  "action",
  [
    v.strictObject({ action: v.literal("activate") }, objectMessage),
    v.strictObject({ action: v.literal("deactivate") }, objectMessage),
    v.strictObject({ action: v.literal("set_token"), accessToken: AccessToken }, objectMessage),
  ],
  "action must be one of activate, deactivate, set_token",
);
export type BotAction = v.InferOutput<typeof BotActionBody>;

/**
 * A room ID: the `!` sigil (spec: room assignments must start with `!`), no whitespace, at most 255 characters.
 * The `:server` part is not required: room versions from v12 use IDs without it.
 */
export const RoomId = v.pipe(
  v.string("roomId must be a string"),
  v.maxLength(255, "roomId must be at most 255 characters"),
  v.regex(/^!\S+$/, "roomId must be a room ID starting with ! (not an alias starting with #)"),
);

/** `POST /api/admin/bots/:id/rooms`. */
export const AssignRoomBody = v.strictObject(
  {
    roomId: RoomId,
    roomAlias: v.optional(
      v.nullable(
        v.pipe(
          v.string("roomAlias must be a string"),
          v.maxLength(255, "roomAlias must be at most 255 characters"),
          v.regex(/^#[^\s:]+:\S+$/, "roomAlias must look like #room:example.org"),
        ),
      ),
    ),
    config: v.optional(JsonConfig("config")),
  },
  objectMessage,
);
export type AssignRoomInput = v.InferOutput<typeof AssignRoomBody>;

/** `PUT /api/admin/bots/:id/features`. */
export const FeatureToggleBody = v.pipe(
  v.strictObject(
    {
      featureKey: v.picklist(FEATURE_KEYS, `featureKey must be one of ${FEATURE_KEYS.join(", ")}`),
      enabled: v.boolean("enabled must be true or false"),
      scope: v.optional(v.picklist(["global", "room"], "scope must be global or room"), "global"),
      scopeId: v.optional(v.nullable(RoomId)),
      config: v.optional(JsonConfig("config")),
    },
    objectMessage,
  ),
  v.check(
    (body) => body.scope === "global" || typeof body.scopeId === "string",
    "scopeId (a room ID) is required for room scope",
  ),
  v.check((body) => body.scope === "room" || body.scopeId == null, "scopeId must be null for global scope"),
);
export type FeatureToggleInput = v.InferOutput<typeof FeatureToggleBody>;

/** `GET /api/admin/bots`: `serverId` for the list, or `view=templates` for the catalog. */
export const BotListQuery = v.pipe(
  v.object(
    {
      serverId: v.optional(v.pipe(v.string(), v.nonEmpty("serverId must not be empty"), v.maxLength(100))),
      view: v.optional(v.picklist(["templates"], "view must be templates")),
    },
    objectMessage,
  ),
  v.check((query) => query.view !== undefined || query.serverId !== undefined, "serverId is required (or view=templates)"),
);

/** `?serverId=` on a single bot: optional; when given it must be the bot's server. */
export const OptionalServerQuery = v.object(
  { serverId: v.optional(v.pipe(v.string(), v.nonEmpty("serverId must not be empty"), v.maxLength(100))) },
  objectMessage,
);
