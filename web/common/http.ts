/**
 * Browser helpers shared by the web UIs: every URL is relative to `document.baseURI`, which the server sets with
 * `<base href>` (Home Assistant's ingress prefix, or `/`). Never build absolute paths here.
 */
import { saveBlob } from "./clipboard.ts";

/** An HTTP failure with the server's `{error}` message (string, or `{message}` in the portal's envelope). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly path: string,
    /** The body's machine-readable code when it has one (the portal's `errorCode`, e.g. `M_USER_IN_USE`). */
    readonly code?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** `api/...` resolved against the document base, as a string (fetch, EventSource, `<a href>`). */
export function apiUrl(path: string): string {
  return new URL(path, document.baseURI).toString();
}

/** The WebSocket URL for a relative path: same host and prefix as the page, `ws:` or `wss:`. */
export function wsUrl(path: string): string {
  const url = new URL(path, document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

function codeOf(body: unknown): string | undefined {
  const code = body && typeof body === "object" && "errorCode" in body ? (body as { errorCode: unknown }).errorCode : undefined;
  return typeof code === "string" ? code : undefined;
}

function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === "object" && "error" in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === "string") return error;
    if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  }
  return fallback;
}

export interface RequestOptions {
  method?: string;
  /**
   * Sent as JSON, unless it is FormData (multipart) or raw bytes (a Blob, an ArrayBuffer or a typed array), which go
   * as they are with `contentType`.
   */
  body?: unknown;
  /** The Content-Type of a raw body; by default a Blob's own type, else `application/octet-stream`. */
  contentType?: string;
  signal?: AbortSignal;
}

function isRaw(body: unknown): body is Blob | ArrayBuffer | ArrayBufferView {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

/** Calls `path` (relative) and returns the parsed JSON body (undefined for 204); throws ApiError otherwise. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", body, contentType, signal } = options;
  const init: RequestInit = { method, signal, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body instanceof FormData) init.body = body;
  else if (isRaw(body)) {
    init.body = body as BodyInit;
    const type = contentType ?? ((body instanceof Blob && body.type) || "application/octet-stream");
    init.headers = { ...init.headers, "Content-Type": type };
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(`Cannot reach the hub (${(error as Error).message})`, 0, path);
  }
  const text = await response.text();
  let parsed: unknown;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    const fallback = `${response.status} ${response.statusText || "error"}`.trim();
    throw new ApiError(messageOf(parsed, fallback), response.status, path, codeOf(parsed));
  }
  return parsed as T;
}

/**
 * Downloads `path` as a file. Fetched first (not a plain link) so a failure shows as an error instead of saving an
 * error page; the file name comes from Content-Disposition, else `fallbackName`.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin" });
  } catch (error) {
    throw new ApiError(`Cannot reach the hub (${(error as Error).message})`, 0, path);
  }
  if (!response.ok) {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw new ApiError(messageOf(body, `${response.status} ${response.statusText}`.trim()), response.status, path, codeOf(body));
  }
  const blob = await response.blob();
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  saveBlob(name, blob);
  return name;
}
