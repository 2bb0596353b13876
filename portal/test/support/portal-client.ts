/** One decoded answer. `body` is the parsed JSON (an empty object when the body was not JSON). */
export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
  text: string;
  headers: Headers;
}

/** Every answer body any client received, for the "no secret in any response" test. */
export const allResponses: string[] = [];

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A small browser-like HTTP client for the portal: keeps the session cookie, sends `Origin` on unsafe methods
 * (as browsers do) unless told otherwise, and sends `X-Forwarded-For` to pose as a given client IP.
 */
export class PortalClient {
  cookie: string | undefined;

  constructor(
    readonly base: string,
    readonly options: { ip?: string; origin?: string | null } = {},
  ) {}

  async request(
    method: string,
    path: string,
    options: { body?: unknown; raw?: string | Blob; form?: FormData; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.options.ip) headers["x-forwarded-for"] = this.options.ip;
    if (UNSAFE.has(method) && this.options.origin !== null) headers.origin = this.options.origin ?? this.base;
    if (this.cookie) headers.cookie = `portal_session=${this.cookie}`;
    const body = options.form ?? options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    // A FormData body gets its multipart content type (with the boundary) from fetch.
    if (body !== undefined && options.form === undefined) headers["content-type"] = "application/json";
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    allResponses.push(text, JSON.stringify([...response.headers]));
    const setCookie = response.headers.getSetCookie().find((line) => line.startsWith("portal_session="));
    if (setCookie) {
      const value = setCookie.slice("portal_session=".length).split(";")[0] ?? "";
      this.cookie = value === "" || /max-age=0/i.test(setCookie) ? undefined : value;
    }
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (HTML page): body stays {}.
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  get = (path: string) => this.request("GET", path);
  post = (path: string, body?: unknown) => this.request("POST", path, { body });
  put = (path: string, body?: unknown) => this.request("PUT", path, { body });
  patch = (path: string, body?: unknown) => this.request("PATCH", path, { body });
  delete = (path: string) => this.request("DELETE", path);
  /** A multipart/form-data POST (file uploads). */
  upload = (path: string, form: FormData) => this.request("POST", path, { form });

  async login(email: string, password: string): Promise<Reply> {
    const reply = await this.post("/api/auth/login", { email, password });
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
    return reply;
  }
}
