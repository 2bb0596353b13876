/** The public sign-up page in Brazilian Portuguese (docs/i18n.md). "Você", as Home Assistant's pt-BR translation. */
import { type PluralForms, plurals } from "../../../../common/i18n.ts";
import { P, type PublicMessages } from "../../strings/public.ts";

const rules = plurals("pt-BR");
/** CLDR puts 0 with 1 in Portuguese; Brazilian usage counts zero in the plural. */
const p = (n: number, forms: PluralForms) => (n === 0 ? forms.other : rules(n, forms));

export default {
  // TODO(mas23): English until the hand-off to MAS is translated (issue 23).
  mas: P.mas,
  demo: "DEMO",
  demoTitle: "Modo demo: as contas são criadas em um servidor simulado e somem quando o portal reinicia",
  loading: "Carregando…",
  noServer: "Esta página de cadastro não está disponível",
  noServerText: "Nenhum servidor Matrix está configurado aqui para cadastro. Confira o link que você recebeu.",
  serverClosed: "O cadastro está fechado",
  serverClosedText: "Este servidor não está aceitando novas contas no momento.",
  loadFailed: "Não foi possível carregar a página de cadastro",
  retry: "Tentar novamente",
  unreachable: (reason: string) => `Não foi possível acessar o portal (${reason}). Verifique sua conexão e tente novamente.`,

  form: {
    label: "Criar uma conta",
    username: "Nome de usuário",
    usernamePreview: (userId: string) => `Seu ID Matrix será ${userId}`,
    displayName: "Nome de exibição",
    displayNameHint: "Opcional: o nome que as outras pessoas veem. Você pode mudá-lo depois.",
    password: "Senha",
    passwordHint: "Pelo menos 8 caracteres. Algumas palavras sem relação entre si formam uma senha forte e fácil de lembrar.",
    showPassword: "Mostrar senha",
    hidePassword: "Ocultar senha",
    confirmPassword: "Confirmar senha",
    token: "Token de cadastro",
    tokenHint: "O código de convite que você recebeu.",
    submit: "Criar conta",
    submitting: "Criando sua conta…",
    legalPrefix: "Ao criar uma conta, você aceita",
    terms: "os termos de serviço",
    privacy: "a política de privacidade",
    and: "e",
  },

  username: {
    empty: "Escolha um nome de usuário.",
    characters: "Use apenas letras minúsculas a–z, dígitos 0–9 e . _ = -",
    underscore: "Um nome de usuário não pode começar com _",
    digits: "Um nome de usuário não pode ter apenas dígitos.",
    length: "Este nome de usuário é longo demais.",
    checking: "Verificando disponibilidade…",
    available: (userId: string) => `${userId} está disponível`,
    taken: "Este nome de usuário já está em uso.",
    unknown: "Não foi possível verificar a disponibilidade; você ainda pode tentar.",
  },

  password: {
    tooShort: (missing: number) => p(missing, { one: "Falta 1 caractere", other: `Faltam ${missing} caracteres` }),
    levels: ["Curta demais", "Fraca", "Razoável", "Boa", "Forte"],
    strength: (level: string) => `Força: ${level}`,
    weakAdvice: "Fácil de adivinhar. Aumente a senha ou use algumas palavras sem relação entre si.",
    mismatch: "As senhas não coincidem.",
    match: "As senhas coincidem.",
  },

  token: {
    checking: "Verificando o token…",
    valid: "Este token é válido.",
    invalid: "Este token não é válido: talvez tenha sido digitado errado, expirado, esgotado ou desativado.",
    unknown: "Não foi possível verificar o token agora; ele será verificado quando você se cadastrar.",
    prefilled: "Preenchido a partir do seu link de convite.",
    exhausted: "Este token está esgotado.",
    disabled: "Este token foi desativado.",
    expired: "Este token expirou.",
  },

  invite: {
    checking: "Verificando seu convite…",
    valid: "Seu convite é válido",
    validText: (server: string) => `Escolha abaixo um nome de usuário e uma senha para criar sua conta em ${server}.`,
    validUntil: (when: string) => `Ele pode ser usado até ${when}.`,
    exhausted: "Este convite está esgotado",
    exhaustedText: "Ele já foi usado todas as vezes permitidas. Peça um novo convite a quem convidou você.",
    disabled: "Este convite foi retirado",
    disabledText: "Os administradores do servidor o desativaram. Peça um novo a quem convidou você.",
    expired: "Este convite expirou",
    expiredText: "Peça um novo convite a quem convidou você.",
    unknown: "Este convite não é conhecido aqui",
    unknownText: "Verifique se você abriu o link inteiro ou peça um novo a quem convidou você.",
    invalid: "Este convite não pode ser usado",
    invalidText: "Ele pode estar esgotado, expirado ou ter sido retirado. Peça um novo a quem convidou você.",
    unchecked: "Não foi possível verificar seu convite agora",
    uncheckedText: "Você ainda pode se cadastrar: ele é verificado quando você cria sua conta.",
    another: "Tenho outro código de convite",
  },

  errors: {
    M_USER_IN_USE: "Este nome de usuário já está em uso. Escolha outro.",
    M_INVALID_USERNAME: "Este nome de usuário não pode ser usado.",
    M_EXCLUSIVE: "Este nome de usuário está reservado neste servidor. Escolha outro.",
    M_PASSWORD_TOO_SHORT: "A senha é curta demais para este servidor.",
    M_PASSWORD_NO_DIGIT: "A senha precisa ter pelo menos um dígito.",
    M_PASSWORD_NO_SYMBOL: "A senha precisa ter pelo menos um símbolo.",
    M_PASSWORD_NO_UPPERCASE: "A senha precisa ter pelo menos uma letra maiúscula.",
    M_PASSWORD_NO_LOWERCASE: "A senha precisa ter pelo menos uma letra minúscula.",
    M_WEAK_PASSWORD: "A senha é fraca demais. Escolha uma mais forte.",
    M_UNAUTHORIZED: "O token de cadastro não foi aceito.",
    M_FORBIDDEN: "O cadastro está fechado neste servidor.",
    M_LIMIT_EXCEEDED: "Tentativas demais. Aguarde um momento.",
    M_NOT_FOUND: "Este servidor não está disponível para cadastro.",
    M_MISSING_PARAM: "Preencha todos os campos obrigatórios.",
    M_INVALID_PARAM: "Alguns dados não são válidos.",
    M_NOT_JSON: "Não foi possível enviar o formulário. Recarregue a página.",
    M_BAD_JSON: "Não foi possível enviar o formulário. Recarregue a página.",
    M_UNKNOWN: "O servidor não conseguiu criar a conta agora. Tente novamente mais tarde.",
    NETWORK: "Sua conta não foi criada: não foi possível acessar o portal.",
  },
  errorFallback: "Não foi possível criar sua conta.",
  errorTitle: "Falha no cadastro",

  success: {
    title: "Sua conta está pronta",
    yourId: "Seu ID Matrix",
    copy: "Copiar",
    copied: "Copiado",
    copyId: "Copiar seu ID Matrix",
    copyServer: "Copiar o endereço do servidor",
    howTo: "Como entrar",
    step1: "Instale um app Matrix (qualquer um serve):",
    step2: (server: string) => `Escolha “Entrar” e, se o app pedir um servidor (homeserver), digite ${server}.`,
    homeserver: "Servidor",
    step3: "Entre com seu nome de usuário e a senha que você acabou de escolher.",
    platforms: { web: "Navegador", desktop: "Computador", ios: "iPhone e iPad", android: "Android", other: "Outros" },
    another: "Criar outra conta",
  },

  brandingDefaults: {
    appTitle: "Cadastro no Matrix",
    subtitle: "Crie sua conta Matrix",
    welcomeHeadline: "Boas-vindas",
    registrationText:
      "Escolha um nome de usuário e uma senha. Para se cadastrar, você precisa do token de cadastro (código de convite) que recebeu.",
    successText: "Sua conta está pronta. Entre em qualquer app Matrix com seu nome de usuário e sua senha.",
    usernameHint: "Apenas letras minúsculas, dígitos e . _ = -",
  },

  language: "Idioma",

  footer: {
    privacy: "Privacidade",
    terms: "Termos",
    imprint: "Informações legais",
    support: "Suporte",
    contact: "Contato",
  },
} satisfies PublicMessages;
