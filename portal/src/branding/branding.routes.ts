import { Hono } from "hono";
import { HttpError, notFound } from "../../../lib/http-error.ts";
import { parseOr400, validate } from "../../../lib/validate.ts";
import type { PortalContext } from "../context.ts";
import { actorOf } from "../http/actor.ts";
import type { PortalEnv } from "../http/env.ts";
import { readMultipartForm } from "../http/multipart.ts";
import {
  AssetPurposeField,
  CreateProfileBody,
  ProfileActionBody,
  PublicBrandingQuery,
  UpdateProfileBody,
} from "./branding.schema.ts";

/** Cache lifetime of asset responses (portal spec: 86400 s). Asset ids change on every upload, so this is safe. */
export const ASSET_MAX_AGE = 86_400;

/** `If-None-Match` against a strong ETag, compared weakly as RFC 9110 asks for GET (`*`, lists, `W/` prefixes). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/** `/api/admin/branding`: profiles and their assets. */
export function brandingAdminRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const branding = ctx.services.branding;
  return new Hono<PortalEnv>()
    .get("/", async (c) => c.json({ profiles: await branding.list() }))
    .post("/", validate("json", CreateProfileBody), async (c) =>
      c.json({ profile: await branding.create(c.req.valid("json").name, actorOf(c)) }, 201),
    )
    .get("/:id", async (c) => c.json({ profile: await branding.get(c.req.param("id")) }))
    .put("/:id", validate("json", UpdateProfileBody), async (c) =>
      c.json({ profile: await branding.update(c.req.param("id"), c.req.valid("json"), actorOf(c)) }),
    )
    .patch("/:id", validate("json", ProfileActionBody), async (c) =>
      c.json({ profile: await branding.act(c.req.param("id"), c.req.valid("json").action, actorOf(c)) }),
    )
    .delete("/:id", async (c) => {
      await branding.delete(c.req.param("id"), actorOf(c));
      return c.json({ deleted: true });
    })
    .post("/:id/assets", async (c) => {
      const form = await readMultipartForm(c, "Upload the image as multipart/form-data with the fields file and purpose");
      const purpose = parseOr400(AssetPurposeField, form.purpose, "purpose");
      const file = form.file;
      if (Array.isArray(file)) throw new HttpError(400, "Upload one file per request");
      if (!(file instanceof File)) throw new HttpError(400, "The field file must be a file");
      const result = await branding.uploadAsset(
        c.req.param("id"),
        { purpose, bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name, declaredType: file.type },
        actorOf(c),
      );
      return c.json(result, 201);
    })
    .delete("/:id/assets/:assetId", async (c) => {
      await branding.deleteAsset(c.req.param("id"), c.req.param("assetId"), actorOf(c));
      return c.json({ deleted: true });
    });
}

/** `/api/branding`: the published branding and the asset files, public. */
export function brandingPublicRoutes(ctx: PortalContext): Hono<PortalEnv> {
  const branding = ctx.services.branding;
  return new Hono<PortalEnv>()
    .get("/", validate("query", PublicBrandingQuery), async (c) =>
      c.json({ branding: await branding.publicBranding(c.req.valid("query")) }),
    )
    .get("/assets/:id", async (c) => {
      const row = await branding.findAsset(c.req.param("id"));
      if (!row) throw notFound("No such asset");
      const etag = `"${row.sha256}"`;
      const notModified = matchesEtag(c.req.header("if-none-match"), etag);
      const bytes = notModified ? undefined : await branding.readAssetBytes(row);
      if (!notModified && !bytes) throw notFound("No such asset");
      c.header("ETag", etag);
      c.header("Cache-Control", `public, max-age=${ASSET_MAX_AGE}`);
      c.header("X-Content-Type-Options", "nosniff");
      // An image needs no script, style or frame; if a browser ever opened it as a document it could do nothing.
      c.header("Content-Security-Policy", "default-src 'none'; sandbox");
      if (!bytes) return c.body(null, 304);
      c.header("Content-Type", row.mime_type);
      c.header("Content-Length", String(bytes.byteLength));
      return c.body(new Uint8Array(bytes), 200);
    });
}
