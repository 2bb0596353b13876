/** The shared components' words in nl (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_NL = {
  loading: "Laden…",
  retry: "Opnieuw proberen",
  cancel: "Annuleren",
  save: "Opslaan",
  saved: "Opgeslagen",
  delete: "Verwijderen",
  edit: "Bewerken",
  confirm: "Bevestigen",
  copy: "Kopiëren",
  copied: "Gekopieerd",
  copyFailed: "Kopiëren lukte niet; selecteer de tekst en kopieer hem zelf",
  search: "Zoeken",
  previous: "Vorige",
  next: "Volgende",
  dismiss: "Sluiten",
  details: "Details",
  perPage: "Per pagina",
  menu: "Menu",
  language: "Taal",
  languageAutomatic: (name: string) => `Automatisch (${name})`,
  languageHint: "Automatisch volgt de taal van je browser. De pagina wordt opnieuw geladen in de gekozen taal.",
  failed: (what: string) => `${what} mislukt`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} van ${total}`,
} satisfies Messages<typeof UI>;
