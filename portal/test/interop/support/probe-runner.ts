/**
 * Sending one probe request to a homeserver and keeping what it answered in a form two servers can be compared in
 * (docs/INTEROP.md "The portal against Synapse"): generated values reduced to their shape, a 429's `Retry-After`
 * kept beside the body.
 */

/** One homeserver as the probes see it. */
export interface ProbeTarget {
  url: string;
  adminToken: string;
  /** A valid access token of a user who is not a server admin. */
  userToken: string;
}

/** What a server answered to one probe. */
export interface Observation {
  name: string;
  status: number;
  body: unknown;
}

/** Values that differ by nature (generated tokens, sessions, device ids) replaced by their shape. */
function normalise(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalise(v, k)]),
    );
  }
  if (typeof value === "string" && (key === "session" || key === "device_id" || key === "access_token")) {
    return `<${key}>`;
  }
  return value;
}

/** Options of one probe: the body (JSON, or `raw` text), the token (the admin's unless given; null for none). */
export interface ProbeOptions {
  body?: unknown;
  raw?: string;
  token?: string | null;
  /** What of the answer is compared (default: all of it). */
  keep?: (body: Record<string, unknown>) => unknown;
}

/**
 * A function that sends one request to `target` and records the answer in `observations` (normalised; a 429 also
 * with its `Retry-After` header); it returns the raw answer for later probes to build on.
 */
export function prober(target: ProbeTarget, observations: Observation[]) {
  return async (name: string, method: string, path: string, options: ProbeOptions = {}) => {
    const token = options.token === undefined ? target.adminToken : options.token;
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(`${target.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { text: text.slice(0, 80) };
    }
    const kept = normalise(options.keep ? options.keep(parsed) : parsed);
    const retryAfter = response.status === 429 ? { "Retry-After": response.headers.get("retry-after") } : {};
    observations.push({ name, status: response.status, body: { ...(kept as object), ...retryAfter } });
    return { status: response.status, body: parsed };
  };
}
