/** The shared components' words in es (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_ES = {
  loading: "Cargando…",
  retry: "Reintentar",
  cancel: "Cancelar",
  save: "Guardar",
  saved: "Guardado",
  delete: "Eliminar",
  edit: "Editar",
  confirm: "Confirmar",
  copy: "Copiar",
  copied: "Copiado",
  copyFailed: "No se pudo copiar; selecciona el texto y cópialo a mano",
  search: "Buscar",
  previous: "Anterior",
  next: "Siguiente",
  dismiss: "Cerrar",
  details: "Detalles",
  perPage: "Por página",
  menu: "Menú",
  language: "Idioma",
  languageAutomatic: (name: string) => `Automático (${name})`,
  languageHint: "Automático sigue el idioma de tu navegador. La página se recarga en el idioma elegido.",
  failed: (what: string) => `${what}: error`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} de ${total}`,
} satisfies Messages<typeof UI>;
