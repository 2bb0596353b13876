/** The shared components' words in de (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_DE = {
  loading: "Wird geladen…",
  retry: "Erneut versuchen",
  cancel: "Abbrechen",
  save: "Speichern",
  saved: "Gespeichert",
  delete: "Löschen",
  edit: "Bearbeiten",
  confirm: "Bestätigen",
  copy: "Kopieren",
  copied: "Kopiert",
  copyFailed: "Kopieren nicht möglich; markiere den Text und kopiere ihn von Hand",
  search: "Suchen",
  previous: "Zurück",
  next: "Weiter",
  dismiss: "Schließen",
  details: "Details",
  perPage: "Pro Seite",
  menu: "Menü",
  language: "Sprache",
  languageAutomatic: (name: string) => `Automatisch (${name})`,
  languageHint: "Automatisch folgt der Sprache deines Browsers. Die Seite wird in der gewählten Sprache neu geladen.",
  failed: (what: string) => `${what} fehlgeschlagen`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} von ${total}`,
} satisfies Messages<typeof UI>;
