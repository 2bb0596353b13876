/** The shared components' words in pt-BR (web/common/strings.ts). */
import type { Messages } from "../i18n.ts";
import type { UI } from "../strings.ts";

export const UI_PTBR = {
  loading: "Carregando…",
  retry: "Tentar novamente",
  cancel: "Cancelar",
  save: "Salvar",
  saved: "Salvo",
  delete: "Excluir",
  edit: "Editar",
  confirm: "Confirmar",
  copy: "Copiar",
  copied: "Copiado",
  copyFailed: "Não foi possível copiar; selecione o texto e copie manualmente",
  search: "Pesquisar",
  previous: "Anterior",
  next: "Próxima",
  dismiss: "Fechar",
  details: "Detalhes",
  perPage: "Por página",
  menu: "Menu",
  language: "Idioma",
  languageAutomatic: (name: string) => `Automático (${name})`,
  languageHint: "Automático segue o idioma do seu navegador. A página é recarregada no idioma escolhido.",
  failed: (what: string) => `${what}: falhou`,
  pageOf: (from: number, to: number, total: number) => `${from}–${to} de ${total}`,
} satisfies Messages<typeof UI>;
