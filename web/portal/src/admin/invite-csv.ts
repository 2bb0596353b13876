/**
 * The CSV of a batch of invitations (RFC 4180: CRLF lines, fields quoted when they hold a comma, quote or line break),
 * with a UTF-8 byte order mark so spreadsheet programs read labels with accents right. A free-text cell that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` (OWASP's advice against CSV
 * injection); tokens and links never start that way.
 */

export interface InviteRow {
  token: string;
  link: string;
  label: string | null;
  note: string | null;
  /** The status word as the console shows it ("Valid", "Used up"…). */
  status: string;
  usesAllowed: number | null;
  used: number;
  /** ms since the epoch, null for never. */
  expiresAt: number | null;
}

export const CSV_HEADER = ["token", "invite_link", "label", "note", "status", "uses_allowed", "used", "expires"] as const;

const defused = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
const quoted = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function inviteCsv(rows: readonly InviteRow[]): string {
  const lines = [CSV_HEADER.join(",")];
  for (const row of rows) {
    lines.push(
      [
        row.token,
        row.link,
        defused(row.label ?? ""),
        defused(row.note ?? ""),
        row.status,
        row.usesAllowed === null ? "" : String(row.usesAllowed),
        String(row.used),
        row.expiresAt === null ? "" : new Date(row.expiresAt).toISOString(),
      ]
        .map(quoted)
        .join(","),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** A file name from a batch label: letters, digits, `-` and `_` kept, the rest `-`, never empty. */
export function fileNameOf(label: string, extension: string): string {
  const stem = label
    .normalize("NFKD")
    .replace(/[^\w-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${stem || "invites"}.${extension}`;
}
