/**
 * The words both web UIs' shared components say (English). Each app's strings spread these into their `common`
 * section, so a page says `S.common.retry` or `A.common.retry` and the shared components say `UI.retry`.
 */
export const UI = {
  loading: "Loading…",
  retry: "Retry",
  cancel: "Cancel",
  save: "Save",
  saved: "Saved",
  delete: "Delete",
  edit: "Edit",
  confirm: "Confirm",
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Could not copy; select the text and copy it by hand",
  search: "Search",
  previous: "Previous",
  next: "Next",
  dismiss: "Dismiss",
  details: "Details",
  perPage: "Per page",
  language: "Language",
  languageAutomatic: (name: string) => `Automatic (${name})`,
  languageHint: "Automatic follows your browser's language. The page reloads in the chosen language.",
  /** The phone's button that opens the list of sections. */
  menu: "Menu",
  failed: (what: string) => `${what} failed`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} of ${total}`,
} as const;
