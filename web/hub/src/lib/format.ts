import { currentLanguage } from "../../../common/i18n.ts";

/** Formats a manual pairing code for reading aloud: 11 digits as 4-3-4, 21 digits as 4-3-4-4-3-3. */
export function formatManualCode(code: string): string {
  const digits = code.replace(/\D/g, "");
  if (digits.length === 11) return `${digits.slice(0, 4)}-${digits.slice(4, 7)}-${digits.slice(7)}`;
  if (digits.length === 21) {
    return [
      digits.slice(0, 4),
      digits.slice(4, 7),
      digits.slice(7, 11),
      digits.slice(11, 15),
      digits.slice(15, 18),
      digits.slice(18),
    ].join("-");
  }
  return code;
}

export function formatBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 && unit > 0 ? 1 : 0;
  const number = new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${number.format(value)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  // Intl's narrow units read "2d 3h" in English and "2 T 3h", "2j 3h", "2 d. 3 h" in German, French, Polish.
  const unit = (value: number, name: string) =>
    new Intl.NumberFormat(currentLanguage(), { style: "unit", unit: name, unitDisplay: "narrow" }).format(value);
  if (d > 0) return `${unit(d, "day")} ${unit(h, "hour")}`;
  if (h > 0) return `${unit(h, "hour")} ${unit(m, "minute")}`;
  if (m > 0) return `${unit(m, "minute")} ${unit(s % 60, "second")}`;
  return unit(s, "second");
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(currentLanguage());
}

export function formatClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(currentLanguage());
}

/**
 * Words a key may hold that are not spelled as plain words: acronyms in capitals, "ha" as the name it stands for.
 * Proper names of words (not UI sentences), so they stay out of the string tables.
 */
const SPELLED: Record<string, string> = {
  ha: "Home Assistant",
  id: "ID",
  ids: "IDs",
  ip: "IP",
  ipv4: "IPv4",
  ipv6: "IPv6",
  url: "URL",
  api: "API",
  qr: "QR",
  pin: "PIN",
  pins: "PINs",
  mdns: "mDNS",
  tcp: "TCP",
  udp: "UDP",
  http: "HTTP",
  json: "JSON",
  rss: "RSS",
  cpu: "CPU",
  mqtt: "MQTT",
  hvac: "HVAC",
  ev: "EV",
  uuid: "UUID",
  webrtc: "WebRTC",
};

/**
 * Human label for a snake_case or camelCase key: `color_temperature_light` → "Color temperature light",
 * `ha_connected` → "Home Assistant connected", `vendorId` → "Vendor ID".
 */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((word, i) => {
      const spelled = SPELLED[word.toLowerCase()];
      if (spelled) return spelled;
      const lower = word.toLowerCase();
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    });
  return words.join(" ");
}
