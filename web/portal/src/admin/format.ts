import { currentLanguage } from "../../../common/i18n.ts";

/** Dates and sizes for the admin console, in the console's language (docs/i18n.md). */

export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
}

export function formatBytes(bytes: number): string {
  const number = (value: number, digits: number) =>
    new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  if (bytes < 1024) return `${number(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024, bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${number(bytes / 1024 / 1024, 1)} MB`;
}

/** `datetime-local` input value (local time) ↔ milliseconds. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return "";
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function fromLocalInput(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}
