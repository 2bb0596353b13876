/** The public sign-up page in Spanish (docs/i18n.md). "Tú", as Home Assistant's and Element's Spanish. */
import { plurals } from "../../../../common/i18n.ts";
import { P, type PublicMessages } from "../../strings/public.ts";

const p = plurals("es");

export default {
  // TODO(mas23): English until the hand-off to MAS is translated (issue 23).
  mas: P.mas,
  demo: "DEMO",
  demoTitle: "Modo demo: las cuentas se crean en un servidor base simulado y desaparecen cuando el portal se reinicia",
  loading: "Cargando…",
  noServer: "Esta página de registro no está disponible",
  noServerText: "Aquí no hay ningún servidor base configurado para el registro. Revisa el enlace que te dieron.",
  serverClosed: "El registro está cerrado",
  serverClosedText: "Este servidor base no admite cuentas nuevas en este momento.",
  loadFailed: "No se pudo cargar la página de registro",
  retry: "Reintentar",
  unreachable: (reason: string) => `No se puede conectar con el portal (${reason}). Revisa tu conexión y vuelve a intentarlo.`,

  form: {
    label: "Crear una cuenta",
    username: "Nombre de usuario",
    usernamePreview: (userId: string) => `Tu ID de Matrix será ${userId}`,
    displayName: "Nombre visible",
    displayNameHint: "Opcional: el nombre que ven los demás. Puedes cambiarlo más tarde.",
    password: "Contraseña",
    passwordHint:
      "Al menos 8 caracteres. Unas cuantas palabras sin relación entre sí forman una contraseña segura y fácil de recordar.",
    showPassword: "Mostrar contraseña",
    hidePassword: "Ocultar contraseña",
    confirmPassword: "Confirmar contraseña",
    token: "Token de registro",
    tokenHint: "El código de invitación que te dieron.",
    submit: "Crear cuenta",
    submitting: "Creando tu cuenta…",
    legalPrefix: "Al crear una cuenta aceptas",
    terms: "las condiciones del servicio",
    privacy: "la política de privacidad",
    and: "y",
  },

  username: {
    empty: "Elige un nombre de usuario.",
    characters: "Usa solo minúsculas a–z, dígitos 0–9 y . _ = -",
    underscore: "Un nombre de usuario no puede empezar por _",
    digits: "Un nombre de usuario no puede tener solo dígitos.",
    length: "Este nombre de usuario es demasiado largo.",
    checking: "Comprobando disponibilidad…",
    available: (userId: string) => `${userId} está disponible`,
    taken: "Este nombre de usuario ya está en uso.",
    unknown: "No se pudo comprobar la disponibilidad; puedes intentarlo igualmente.",
  },

  password: {
    tooShort: (missing: number) => p(missing, { one: "Falta 1 carácter", other: `Faltan ${missing} caracteres` }),
    levels: ["Demasiado corta", "Débil", "Aceptable", "Buena", "Fuerte"],
    strength: (level: string) => `Seguridad: ${level}`,
    weakAdvice: "Fácil de adivinar. Hazla más larga o usa unas cuantas palabras sin relación entre sí.",
    mismatch: "Las contraseñas no coinciden.",
    match: "Las contraseñas coinciden.",
  },

  token: {
    checking: "Comprobando el token…",
    valid: "Este token es válido.",
    invalid: "Este token no es válido: puede que esté mal escrito, caducado, agotado o desactivado.",
    unknown: "No se pudo comprobar el token ahora; se comprobará cuando te registres.",
    prefilled: "Rellenado a partir de tu enlace de invitación.",
    exhausted: "Este token está agotado.",
    disabled: "Este token se ha desactivado.",
    expired: "Este token ha caducado.",
  },

  invite: {
    checking: "Comprobando tu invitación…",
    valid: "Tu invitación es válida",
    validText: (server: string) => `Elige abajo un nombre de usuario y una contraseña para crear tu cuenta en ${server}.`,
    validUntil: (when: string) => `Puedes usarla hasta el ${when}.`,
    exhausted: "Esta invitación está agotada",
    exhaustedText: "Ya se ha usado todas las veces posibles. Pide una nueva invitación a la persona que te invitó.",
    disabled: "Esta invitación se ha retirado",
    disabledText: "Los administradores del servidor la han desactivado. Pide una nueva a la persona que te invitó.",
    expired: "Esta invitación ha caducado",
    expiredText: "Pide una nueva invitación a la persona que te invitó.",
    unknown: "Esta invitación no se conoce aquí",
    unknownText: "Comprueba que abriste el enlace completo o pide una nueva a la persona que te invitó.",
    invalid: "Esta invitación no se puede usar",
    invalidText: "Puede que esté agotada, caducada o retirada. Pide una nueva a la persona que te invitó.",
    unchecked: "No se pudo comprobar tu invitación ahora mismo",
    uncheckedText: "Aun así puedes registrarte: se comprobará cuando crees tu cuenta.",
    another: "Tengo otro código de invitación",
  },

  errors: {
    M_USER_IN_USE: "Este nombre de usuario ya está en uso. Elige otro.",
    M_INVALID_USERNAME: "Este nombre de usuario no se puede usar.",
    M_EXCLUSIVE: "Este nombre de usuario está reservado en este servidor. Elige otro.",
    M_PASSWORD_TOO_SHORT: "La contraseña es demasiado corta para este servidor.",
    M_PASSWORD_NO_DIGIT: "La contraseña debe contener al menos un dígito.",
    M_PASSWORD_NO_SYMBOL: "La contraseña debe contener al menos un símbolo.",
    M_PASSWORD_NO_UPPERCASE: "La contraseña debe contener al menos una mayúscula.",
    M_PASSWORD_NO_LOWERCASE: "La contraseña debe contener al menos una minúscula.",
    M_WEAK_PASSWORD: "La contraseña es demasiado débil. Elige una más segura.",
    M_UNAUTHORIZED: "El token de registro no fue aceptado.",
    M_FORBIDDEN: "El registro está cerrado en este servidor.",
    M_LIMIT_EXCEEDED: "Demasiados intentos. Espera un momento.",
    M_NOT_FOUND: "Este servidor base no está disponible para el registro.",
    M_MISSING_PARAM: "Rellena todos los campos obligatorios.",
    M_INVALID_PARAM: "Algunos datos no son válidos.",
    M_NOT_JSON: "No se pudo enviar el formulario. Recarga la página.",
    M_BAD_JSON: "No se pudo enviar el formulario. Recarga la página.",
    M_UNKNOWN: "El servidor base no pudo crear la cuenta en este momento. Vuelve a intentarlo más tarde.",
    NETWORK: "Tu cuenta no se ha creado: no se pudo conectar con el portal.",
  },
  errorFallback: "No se pudo crear tu cuenta.",
  errorTitle: "El registro ha fallado",

  success: {
    title: "Tu cuenta está lista",
    yourId: "Tu ID de Matrix",
    copy: "Copiar",
    copied: "Copiado",
    copyId: "Copiar tu ID de Matrix",
    copyServer: "Copiar la dirección del servidor base",
    howTo: "Cómo iniciar sesión",
    step1: "Instala una aplicación de Matrix (cualquiera sirve):",
    step2: (server: string) => `Elige «Iniciar sesión» y, si la aplicación te pide un servidor base, escribe ${server}.`,
    homeserver: "Servidor base",
    step3: "Inicia sesión con tu nombre de usuario y la contraseña que acabas de elegir.",
    platforms: { web: "Navegador", desktop: "Ordenador", ios: "iPhone y iPad", android: "Android", other: "Otras" },
    another: "Crear otra cuenta",
  },

  brandingDefaults: {
    appTitle: "Registro en Matrix",
    subtitle: "Crea tu cuenta de Matrix",
    welcomeHeadline: "Te damos la bienvenida",
    registrationText:
      "Elige un nombre de usuario y una contraseña. Para registrarte necesitas el token de registro (código de invitación) que te dieron.",
    successText:
      "Tu cuenta está lista. Inicia sesión en cualquier aplicación de Matrix con tu nombre de usuario y tu contraseña.",
    usernameHint: "Solo minúsculas, dígitos y . _ = -",
  },

  language: "Idioma",

  footer: {
    privacy: "Privacidad",
    terms: "Condiciones",
    imprint: "Aviso legal",
    support: "Ayuda",
    contact: "Contacto",
  },
} satisfies PublicMessages;
