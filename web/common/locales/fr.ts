/** The shared components' words in fr (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_FR = {
  loading: "Chargement…",
  retry: "Réessayer",
  cancel: "Annuler",
  save: "Enregistrer",
  saved: "Enregistré",
  delete: "Supprimer",
  edit: "Modifier",
  confirm: "Confirmer",
  copy: "Copier",
  copied: "Copié",
  copyFailed: "Impossible de copier ; sélectionnez le texte et copiez-le à la main",
  search: "Rechercher",
  previous: "Précédent",
  next: "Suivant",
  dismiss: "Fermer",
  details: "Détails",
  perPage: "Par page",
  menu: "Menu",
  language: "Langue",
  languageAutomatic: (name: string) => `Automatique (${name})`,
  languageHint: "Automatique suit la langue de votre navigateur. La page se recharge dans la langue choisie.",
  failed: (what: string) => `${what} : échec`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} sur ${total}`,
} satisfies Messages<typeof UI>;
