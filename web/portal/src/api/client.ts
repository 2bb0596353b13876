import { ApiError, type RequestOptions, request } from "../../../common/http.ts";

/** Set by the UI in its language: the message of a request that never reached the portal. */
let unreachableMessage = (reason: string) => `Cannot reach the portal (${reason})`;
export function setUnreachableMessage(message: (reason: string) => string): void {
  unreachableMessage = message;
}

/**
 * The portal's requests: `path` is relative (`api/...`) and resolves against `<base href>`. Failures throw ApiError
 * with the envelope's `error` as message and `errorCode` as `code`; a network failure is status 0.
 */
export async function call<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await request<T>(path, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) {
      const reason = /\(([^)]*)\)$/.exec(error.message)?.[1] ?? error.message;
      throw new ApiError(unreachableMessage(reason), 0, error.path, "NETWORK");
    }
    throw error;
  }
}

/** `?a=1&b=2` from the defined entries of `params` ("" when none). */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export { ApiError };
