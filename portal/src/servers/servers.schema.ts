import * as v from "valibot";
import { objectMessage } from "../schema-messages.ts";

/** Matrix server name grammar: a DNS name, IPv4 or bracketed IPv6 literal, and an optional port. */
const SERVER_NAME = /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,255})(?::\d{1,5})?$/;
/** A DNS host name (lower case, labels of 1-63 characters). */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** One or more path segments of unreserved characters, no trailing slash: `/join`, `/org/team`. */
const ROUTE_PREFIX = /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+)+$/;

const max = (n: number, field: string) => v.maxLength<string, number, string>(n, `${field} must be at most ${n} characters`);
const text = (field: string) => v.string(`${field} must be a string`);

/** An absolute http(s) URL without credentials, query or fragment; stored without a trailing slash. */
const httpUrl = (field: string) =>
  v.pipe(
    text(field),
    v.trim(),
    max(2000, field),
    v.url(`${field} must be a valid URL`),
    // valibot runs the whole pipe even after `url` failed, so this check must cope with a non-URL too.
    v.check((value) => {
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return (
        (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password && !url.search && !url.hash
      );
    }, `${field} must be an http(s) URL without credentials, query or fragment`),
    v.transform((value) => value.replace(/\/+$/, "")),
  );

const fields = {
  name: v.pipe(text("name"), v.trim(), v.nonEmpty("name is required"), max(200, "name")),
  slug: v.pipe(text("slug"), max(100, "slug"), v.regex(/^[a-z0-9-]+$/, "slug may only contain a-z, 0-9 and -")),
  serverName: v.pipe(
    text("serverName"),
    v.trim(),
    v.nonEmpty("serverName is required"),
    max(500, "serverName"),
    v.regex(SERVER_NAME, "serverName must be a Matrix server name (host name or IP, optional :port)"),
  ),
  internalUrl: httpUrl("internalUrl"),
  publicUrl: httpUrl("publicUrl"),
  notes: v.nullable(v.pipe(text("notes"), max(5000, "notes"))),
  publicDomain: v.nullable(
    v.pipe(
      text("publicDomain"),
      v.trim(),
      v.toLowerCase(),
      max(500, "publicDomain"),
      v.regex(HOSTNAME, "publicDomain must be a host name"),
    ),
  ),
  routePrefix: v.nullable(
    v.pipe(text("routePrefix"), max(100, "routePrefix"), v.regex(ROUTE_PREFIX, "routePrefix must be a path such as /join")),
  ),
  brandingProfileId: v.nullable(
    v.pipe(text("brandingProfileId"), v.nonEmpty("brandingProfileId must not be empty"), max(100, "brandingProfileId")),
  ),
};

/**
 * The admin token goes into an `Authorization: Bearer` header, so it must be visible ASCII without spaces.
 */
export const AdminToken = v.pipe(
  v.string("adminToken must be a string"),
  v.nonEmpty("adminToken is required"),
  max(10000, "adminToken"),
  v.regex(/^[\x21-\x7e]+$/, "adminToken must be printable ASCII without spaces"),
);

/** `kind`: who holds the server's accounts and registration tokens (issue 23). */
export const SERVER_KINDS = ["synapse", "mas"] as const;
const Kind = v.picklist(SERVER_KINDS, "kind must be synapse or mas");

/** An OAuth 2.0 client id of MAS (a ULID for static clients; any visible ASCII is taken). */
const MasClientId = v.pipe(
  v.string("masClientId must be a string"),
  v.trim(),
  v.nonEmpty("masClientId is required"),
  max(255, "masClientId"),
  v.regex(/^[\x21-\x7e]+$/, "masClientId must be printable ASCII without spaces"),
);

/** The client secret goes into `Authorization: Basic` (or a form field): visible ASCII without spaces. */
export const MasClientSecret = v.pipe(
  v.string("masClientSecret must be a string"),
  v.nonEmpty("masClientSecret is required"),
  max(10000, "masClientSecret"),
  v.regex(/^[\x21-\x7e]+$/, "masClientSecret must be printable ASCII without spaces"),
);

const masFields = {
  masUrl: httpUrl("masUrl"),
  masPublicUrl: v.nullable(httpUrl("masPublicUrl")),
  masClientId: MasClientId,
  masClientSecret: MasClientSecret,
};

/**
 * `POST /api/admin/servers`. Unknown fields are refused so that a typo is not silently dropped. `kind` (default
 * `synapse`) decides the credentials: `adminToken` for Synapse; `masUrl`, `masClientId` and `masClientSecret` (and
 * optionally `masPublicUrl`, and `adminToken`) for MAS.
 */
const CreateServerObject = v.strictObject(
  {
    name: fields.name,
    slug: fields.slug,
    serverName: fields.serverName,
    internalUrl: fields.internalUrl,
    publicUrl: fields.publicUrl,
    kind: v.optional(Kind, "synapse"),
    adminToken: v.optional(AdminToken),
    masUrl: v.optional(masFields.masUrl),
    masPublicUrl: v.optional(masFields.masPublicUrl, null),
    masClientId: v.optional(masFields.masClientId),
    masClientSecret: v.optional(masFields.masClientSecret),
    notes: v.optional(fields.notes, null),
    publicDomain: v.optional(fields.publicDomain, null),
    routePrefix: v.optional(fields.routePrefix, null),
    brandingProfileId: v.optional(fields.brandingProfileId, null),
  },
  objectMessage,
);
const requiredFor = (
  kind: "synapse" | "mas",
  key: "adminToken" | "masUrl" | "masClientId" | "masClientSecret",
  message: string,
) =>
  v.forward(
    v.check((body: v.InferOutput<typeof CreateServerObject>) => body.kind !== kind || body[key] !== undefined, message),
    [key],
  );
export const CreateServerBody = v.pipe(
  CreateServerObject,
  requiredFor("synapse", "adminToken", "adminToken is required (a Synapse server admin's access token)"),
  requiredFor("mas", "masUrl", "masUrl is required for a server of kind mas"),
  requiredFor("mas", "masClientId", "masClientId is required for a server of kind mas"),
  requiredFor("mas", "masClientSecret", "masClientSecret is required for a server of kind mas"),
  v.forward(
    v.check(
      (body) => body.kind === "mas" || (body.masUrl ?? body.masClientId ?? body.masClientSecret ?? body.masPublicUrl) == null,
      "masUrl, masPublicUrl, masClientId and masClientSecret belong to servers of kind mas",
    ),
    ["kind"],
  ),
);
export type CreateServerInput = v.InferOutput<typeof CreateServerBody>;

/**
 * `POST /api/admin/servers?saveAnyway=true`: store the server without checking that its homeserver answers and takes
 * the admin token (the portal's own flag; the spec defines none). Only `true` and `false` are accepted.
 */
export const CreateServerQuery = v.object(
  { saveAnyway: v.optional(v.picklist(["true", "false"], "saveAnyway must be true or false")) },
  objectMessage,
);

/** `registrationMode`: `token` (sign-up with a registration token, the default) or `closed` (the portal refuses sign-ups). */
export const REGISTRATION_MODES = ["token", "closed"] as const;
/** `managedMode`: how integrations are deployed for this server, as the integration `deploymentMode` values. */
export const MANAGED_MODES = ["managed", "guided"] as const;

/**
 * `PUT /api/admin/servers/:id`: any subset; `null` clears an optional field. The admin token changes here only with
 * `internalUrl` (a new host needs its token, see ServersService.update); on its own through rotate_token.
 */
export const UpdateServerBody = v.pipe(
  v.strictObject(
    {
      name: v.optional(fields.name),
      slug: v.optional(fields.slug),
      serverName: v.optional(fields.serverName),
      internalUrl: v.optional(fields.internalUrl),
      publicUrl: v.optional(fields.publicUrl),
      notes: v.optional(fields.notes),
      publicDomain: v.optional(fields.publicDomain),
      routePrefix: v.optional(fields.routePrefix),
      brandingProfileId: v.optional(fields.brandingProfileId),
      registrationMode: v.optional(v.nullable(v.picklist(REGISTRATION_MODES, "registrationMode must be token, closed or null"))),
      managedMode: v.optional(v.nullable(v.picklist(MANAGED_MODES, "managedMode must be managed, guided or null"))),
      adminToken: v.optional(AdminToken),
      kind: v.optional(Kind),
      masUrl: v.optional(masFields.masUrl),
      masPublicUrl: v.optional(masFields.masPublicUrl),
      masClientId: v.optional(masFields.masClientId),
      masClientSecret: v.optional(masFields.masClientSecret),
    },
    objectMessage,
  ),
  v.check((body) => Object.keys(body).length > 0, "the body names no field to update"),
  v.forward(
    v.check(
      (body) => body.adminToken === undefined || body.internalUrl !== undefined || body.kind !== undefined,
      "adminToken is changed here only together with internalUrl or kind: use PATCH with action rotate_token",
    ),
    ["adminToken"],
  ),
);
export type UpdateServerInput = v.InferOutput<typeof UpdateServerBody>;

/** `PATCH /api/admin/servers/:id`: one action. */
export const ServerActionBody = v.variant(
  "action",
  [
    v.strictObject({ action: v.literal("enable") }, objectMessage),
    v.strictObject({ action: v.literal("disable") }, objectMessage),
    v.strictObject({ action: v.literal("set_default") }, objectMessage),
    v.strictObject({ action: v.literal("rotate_token"), adminToken: AdminToken }, objectMessage),
    v.strictObject({ action: v.literal("rotate_mas_secret"), masClientSecret: MasClientSecret }, objectMessage),
    v.strictObject({ action: v.literal("diagnostics") }, objectMessage),
  ],
  "action must be one of enable, disable, set_default, rotate_token, rotate_mas_secret, diagnostics",
);
export type ServerAction = v.InferOutput<typeof ServerActionBody>;

/** `GET /api/server/resolve`. */
export const ResolveQuery = v.object(
  {
    serverId: v.optional(v.pipe(v.string(), max(100, "serverId"))),
    slug: v.optional(v.pipe(v.string(), max(100, "slug"))),
    domain: v.optional(v.pipe(v.string(), max(500, "domain"))),
  },
  objectMessage,
);

/** `?serverId=` where an admin endpoint acts on one server. */
export const ServerIdQuery = v.object(
  { serverId: v.pipe(v.string("serverId must be a string"), v.nonEmpty("is required"), max(100, "serverId")) },
  objectMessage,
);
