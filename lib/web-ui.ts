import { existsSync, readFileSync } from "node:fs";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";

export interface WebUiOptions {
  /** Folder with the built UI (`index.html` + `assets/`). */
  dir: string;
  /** The `<base href>` for this request; may throw an HttpError to refuse it. */
  base: (c: Context) => string;
  /** Shown when the UI has not been built yet (e.g. a fresh clone running `npm run hub`). */
  title: string;
}

/**
 * Serves a Vite-built single-page UI: hashed assets with long caching, and `index.html` for every other GET
 * outside `/api`, with a `<base href>` so that the UI's relative URLs work under any proxy prefix.
 */
export function webUi(options: WebUiOptions): Hono {
  const ui = new Hono();
  const template = readIndex(options.dir, options.title);
  if (existsSync(options.dir)) {
    ui.use(
      "/assets/*",
      serveStatic({
        root: options.dir,
        onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
      }),
    );
    ui.get("/favicon.*", serveStatic({ root: options.dir }));
  }
  ui.get("*", (c) => {
    if (c.req.path.startsWith("/api/") || c.req.path === "/api") return c.notFound();
    const base = options.base(c);
    c.header("Cache-Control", "no-cache");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    return c.html(template.replace("<!--base-->", `<base href="${base}">`));
  });
  return ui;
}

function readIndex(dir: string, title: string): string {
  let html: string;
  try {
    html = readFileSync(`${dir}/index.html`, "utf8");
  } catch {
    html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><p>${title}: the web UI is not built. Run <code>npm run build</code>.</p></body></html>`;
  }
  // A placeholder that `<base>` replaces per request, first thing in <head> so it precedes every relative URL.
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}<!--base-->`) : `<!--base-->${html}`;
}
