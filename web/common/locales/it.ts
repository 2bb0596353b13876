/** The shared components' words in it (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_IT = {
  loading: "Caricamento…",
  retry: "Riprova",
  cancel: "Annulla",
  save: "Salva",
  saved: "Salvato",
  delete: "Elimina",
  edit: "Modifica",
  confirm: "Conferma",
  copy: "Copia",
  copied: "Copiato",
  copyFailed: "Impossibile copiare; seleziona il testo e copialo a mano",
  search: "Cerca",
  previous: "Precedente",
  next: "Successiva",
  dismiss: "Chiudi",
  details: "Dettagli",
  perPage: "Per pagina",
  menu: "Menu",
  language: "Lingua",
  languageAutomatic: (name: string) => `Automatica (${name})`,
  languageHint: "Automatica segue la lingua del browser. La pagina si ricarica nella lingua scelta.",
  failed: (what: string) => `${what}: non riuscito`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} di ${total}`,
} satisfies Messages<typeof UI>;
