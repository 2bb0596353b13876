/** The shared components' words in pl (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_PL = {
  loading: "Ładowanie…",
  retry: "Spróbuj ponownie",
  cancel: "Anuluj",
  save: "Zapisz",
  saved: "Zapisano",
  delete: "Usuń",
  edit: "Edytuj",
  confirm: "Potwierdź",
  copy: "Kopiuj",
  copied: "Skopiowano",
  copyFailed: "Nie udało się skopiować; zaznacz tekst i skopiuj go ręcznie",
  search: "Szukaj",
  previous: "Poprzednia",
  next: "Następna",
  dismiss: "Zamknij",
  details: "Szczegóły",
  perPage: "Na stronę",
  menu: "Menu",
  language: "Język",
  languageAutomatic: (name: string) => `Automatyczny (${name})`,
  languageHint: "Automatyczny to język przeglądarki. Strona zostanie ponownie wczytana w wybranym języku.",
  failed: (what: string) => `${what}: niepowodzenie`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} z ${total}`,
} satisfies Messages<typeof UI>;
