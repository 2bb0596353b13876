/** The public sign-up page in Italian (docs/i18n.md). "Tu", as Home Assistant's and Element's Italian. */
import { plurals } from "../../../../common/i18n.ts";
import { P, type PublicMessages } from "../../strings/public.ts";

const p = plurals("it");

export default {
  demo: "DEMO",
  demoTitle: "Modalità demo: gli account vengono creati su un homeserver simulato e spariscono al riavvio del portale",
  loading: "Caricamento…",
  noServer: "Questa pagina di registrazione non è disponibile",
  noServerText: "Qui non è configurato nessun homeserver per la registrazione. Controlla il link che hai ricevuto.",
  serverClosed: "Le registrazioni sono chiuse",
  serverClosedText: "Questo homeserver al momento non accetta nuovi account.",
  loadFailed: "Impossibile caricare la pagina di registrazione",
  retry: "Riprova",
  unreachable: (reason: string) => `Impossibile raggiungere il portale (${reason}). Controlla la connessione e riprova.`,

  form: {
    label: "Crea un account",
    username: "Nome utente",
    usernamePreview: (userId: string) => `Il tuo ID Matrix sarà ${userId}`,
    displayName: "Nome visualizzato",
    displayNameHint: "Facoltativo: il nome che vedono gli altri. Puoi cambiarlo in seguito.",
    password: "Password",
    passwordHint: "Almeno 8 caratteri. Qualche parola senza legami tra loro dà una password robusta e facile da ricordare.",
    showPassword: "Mostra password",
    hidePassword: "Nascondi password",
    confirmPassword: "Conferma password",
    token: "Token di registrazione",
    tokenHint: "Il codice d’invito che hai ricevuto.",
    submit: "Crea account",
    submitting: "Creazione dell’account in corso…",
    legalPrefix: "Creando un account accetti",
    terms: "i termini di servizio",
    privacy: "l’informativa sulla privacy",
    and: "e",
  },

  username: {
    empty: "Scegli un nome utente.",
    characters: "Usa solo lettere minuscole a–z, cifre 0–9 e . _ = -",
    underscore: "Un nome utente non può iniziare con _",
    digits: "Un nome utente non può essere composto solo da cifre.",
    length: "Questo nome utente è troppo lungo.",
    checking: "Verifica della disponibilità…",
    available: (userId: string) => `${userId} è disponibile`,
    taken: "Questo nome utente è già in uso.",
    unknown: "Impossibile verificare la disponibilità; puoi comunque provare.",
  },

  password: {
    tooShort: (missing: number) => p(missing, { one: "Manca ancora 1 carattere", other: `Mancano ancora ${missing} caratteri` }),
    levels: ["Troppo corta", "Debole", "Discreta", "Buona", "Forte"],
    strength: (level: string) => `Sicurezza: ${level}`,
    weakAdvice: "Facile da indovinare. Allungala, oppure usa qualche parola senza legami tra loro.",
    mismatch: "Le password non coincidono.",
    match: "Le password coincidono.",
  },

  token: {
    checking: "Verifica del token…",
    valid: "Questo token è valido.",
    invalid: "Questo token non è valido: forse è scritto male, scaduto, esaurito o disattivato.",
    unknown: "Non è stato possibile verificare il token ora; verrà verificato alla registrazione.",
    prefilled: "Compilato dal tuo link d’invito.",
    // TODO(invite23): English until the invite texts are translated (issue 23).
    exhausted: P.token.exhausted,
    disabled: P.token.disabled,
    expired: P.token.expired,
  },

  // TODO(invite23): English until the invite texts are translated (issue 23).
  invite: P.invite,

  errors: {
    M_USER_IN_USE: "Questo nome utente è già in uso. Scegline un altro.",
    M_INVALID_USERNAME: "Questo nome utente non può essere usato.",
    M_EXCLUSIVE: "Questo nome utente è riservato su questo server. Scegline un altro.",
    M_PASSWORD_TOO_SHORT: "La password è troppo corta per questo server.",
    M_PASSWORD_NO_DIGIT: "La password deve contenere almeno una cifra.",
    M_PASSWORD_NO_SYMBOL: "La password deve contenere almeno un simbolo.",
    M_PASSWORD_NO_UPPERCASE: "La password deve contenere almeno una lettera maiuscola.",
    M_PASSWORD_NO_LOWERCASE: "La password deve contenere almeno una lettera minuscola.",
    M_WEAK_PASSWORD: "La password è troppo debole. Scegline una più robusta.",
    M_UNAUTHORIZED: "Il token di registrazione non è stato accettato.",
    M_FORBIDDEN: "Le registrazioni su questo server sono chiuse.",
    M_LIMIT_EXCEEDED: "Troppi tentativi. Attendi un momento.",
    M_NOT_FOUND: "Questo homeserver non è disponibile per la registrazione.",
    M_MISSING_PARAM: "Compila tutti i campi obbligatori.",
    M_INVALID_PARAM: "Alcuni dati non sono validi.",
    M_NOT_JSON: "Impossibile inviare il modulo. Ricarica la pagina.",
    M_BAD_JSON: "Impossibile inviare il modulo. Ricarica la pagina.",
    M_UNKNOWN: "L’homeserver non è riuscito a creare l’account in questo momento. Riprova più tardi.",
    NETWORK: "Il tuo account non è stato creato: il portale non era raggiungibile.",
  },
  errorFallback: "Non è stato possibile creare il tuo account.",
  errorTitle: "Registrazione non riuscita",

  success: {
    title: "Il tuo account è pronto",
    yourId: "Il tuo ID Matrix",
    copy: "Copia",
    copied: "Copiato",
    copyId: "Copia il tuo ID Matrix",
    copyServer: "Copia l’indirizzo dell’homeserver",
    howTo: "Come accedere",
    step1: "Installa un’app Matrix (va bene una qualsiasi):",
    step2: (server: string) => `Scegli «Accedi» e, se l’app chiede un homeserver, inserisci ${server}.`,
    homeserver: "Homeserver",
    step3: "Accedi con il tuo nome utente e la password che hai appena scelto.",
    platforms: { web: "Browser", desktop: "Computer", ios: "iPhone e iPad", android: "Android", other: "Altre" },
    another: "Crea un altro account",
  },

  brandingDefaults: {
    appTitle: "Registrazione Matrix",
    subtitle: "Crea il tuo account Matrix",
    welcomeHeadline: "Ti diamo il benvenuto",
    registrationText:
      "Scegli un nome utente e una password. Per registrarti ti serve il token di registrazione (codice d’invito) che hai ricevuto.",
    successText: "Il tuo account è pronto. Accedi con una qualsiasi app Matrix usando il tuo nome utente e la password.",
    usernameHint: "Solo lettere minuscole, cifre e . _ = -",
  },

  language: "Lingua",

  footer: {
    privacy: "Privacy",
    terms: "Termini",
    imprint: "Note legali",
    support: "Assistenza",
    contact: "Contatti",
  },
} satisfies PublicMessages;
