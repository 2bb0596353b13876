import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * An admin API failure as MAS renders it (crates/handlers/src/admin/response.rs `ErrorResponse`): one
 * `{title}` per error in the source chain, the outermost first.
 */
export class AdminApiError extends Error {
  override name = "AdminApiError";
  readonly titles: string[];
  constructor(
    readonly status: ContentfulStatusCode,
    ...titles: [string, ...string[]]
  ) {
    super(titles[0]);
    this.titles = titles;
  }

  body(): { errors: { title: string }[] } {
    return { errors: this.titles.map((title) => ({ title })) };
  }
}

/** An OAuth 2.0 error (RFC 6749 §5.2) as the token endpoint answers it (`oauth2_types::errors::ClientError`). */
export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly error: string,
    readonly description?: string,
  ) {
    super(error);
  }

  body(): Record<string, string> {
    return this.description === undefined ? { error: this.error } : { error: this.error, error_description: this.description };
  }
}

/**
 * What axum's `Json` extractor answers before a handler runs: plain text, not MAS's error shape. The messages follow
 * axum 0.8's `JsonRejection` texts; the serde detail after the colon is approximate.
 */
export class PlainTextRejection extends Error {
  override name = "PlainTextRejection";
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}

export function masErrorHandler(error: Error, c: Context): Response {
  if (error instanceof AdminApiError) return c.json(error.body(), error.status);
  if (error instanceof OAuthError) return c.json(error.body(), error.status);
  if (error instanceof PlainTextRejection) return c.text(error.message, error.status);
  return c.json({ errors: [{ title: "Internal server error" }] }, 500);
}
