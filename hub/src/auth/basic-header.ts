/** The challenge sent with every 401 (RFC 7617; the charset tells browsers to send UTF-8). */
export const BASIC_CHALLENGE = 'Basic realm="Matter Hub", charset="UTF-8"';

/** Longer headers are refused unread: no real credentials need more, and hashing them would be wasted work. */
const MAX_HEADER_LENGTH = 1024;
const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads `Authorization: Basic <base64(user:password)>`. Anything else (another scheme, bad base64, bytes that
 * are not UTF-8, no colon) is `undefined`, i.e. not authenticated.
 */
export function parseBasicAuthorization(header: string | undefined): { username: string; password: string } | undefined {
  if (header === undefined || header.length > MAX_HEADER_LENGTH) return undefined;
  const encoded = BASIC.exec(header)?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0) return undefined;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(encoded, "base64"));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Builds the header a client sends (tests, scripts). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}
