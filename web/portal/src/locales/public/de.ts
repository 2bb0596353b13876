/** The public sign-up page in German (docs/i18n.md). Informal "du", as Home Assistant's and Element's German. */
import { plurals } from "../../../../common/i18n.ts";
import type { PublicMessages } from "../../strings/public.ts";

const p = plurals("de");

export default {
  mas: {
    label: "Prüfe deine Einladung",
    intro: (server: string) =>
      `Konten auf ${server} legt sein Kontodienst an. Prüfe hier dein Registrierungstoken; danach geht es dort weiter, wo du Benutzernamen und Passwort wählst.`,
    tokenHint: "Der Einladungscode, den du bekommen hast.",
    check: "Token prüfen",
    checking: "Wird geprüft…",
    valid: "Dieses Token ist gültig.",
    invalid: "Dieses Token ist nicht gültig: Vielleicht ist es vertippt, abgelaufen, aufgebraucht oder widerrufen.",
    empty: "Gib dein Registrierungstoken ein.",
    failed: "Das Token konnte gerade nicht geprüft werden. Bitte versuche es gleich noch einmal.",
    continue: "Weiter zum Erstellen deines Kontos",
    pasteHint: "Wenn die nächste Seite nach einem Registrierungstoken fragt, füge dieses ein:",
    copyToken: "Das Registrierungstoken kopieren",
  },
  demo: "DEMO",
  demoTitle: "Demo-Modus: Konten entstehen auf einem simulierten Homeserver und verschwinden, wenn das Portal neu startet",
  loading: "Wird geladen…",
  noServer: "Diese Registrierungsseite ist nicht verfügbar",
  noServerText: "Hier ist kein Homeserver für die Registrierung eingerichtet. Bitte prüfe den Link, den du bekommen hast.",
  serverClosed: "Die Registrierung ist geschlossen",
  serverClosedText: "Dieser Homeserver nimmt zurzeit keine neuen Konten an.",
  loadFailed: "Die Registrierungsseite konnte nicht geladen werden",
  retry: "Erneut versuchen",
  unreachable: (reason: string) => `Das Portal ist nicht erreichbar (${reason}). Prüfe deine Verbindung und versuche es erneut.`,

  form: {
    label: "Konto erstellen",
    username: "Benutzername",
    usernamePreview: (userId: string) => `Deine Matrix-ID wird ${userId}`,
    displayName: "Anzeigename",
    displayNameHint: "Optional: der Name, den andere sehen. Du kannst ihn später ändern.",
    password: "Passwort",
    passwordHint:
      "Mindestens 8 Zeichen. Ein paar Wörter, die nichts miteinander zu tun haben, ergeben ein starkes Passwort, das man sich merken kann.",
    showPassword: "Passwort anzeigen",
    hidePassword: "Passwort verbergen",
    confirmPassword: "Passwort wiederholen",
    token: "Registrierungstoken",
    tokenHint: "Der Einladungscode, den du bekommen hast.",
    submit: "Konto erstellen",
    submitting: "Dein Konto wird erstellt…",
    legalPrefix: "Mit dem Erstellen eines Kontos akzeptierst du",
    terms: "die Nutzungsbedingungen",
    privacy: "die Datenschutzerklärung",
    and: "und",
  },

  username: {
    empty: "Wähle einen Benutzernamen.",
    characters: "Nur Kleinbuchstaben a–z, Ziffern 0–9 und . _ = - verwenden",
    underscore: "Ein Benutzername darf nicht mit _ beginnen",
    digits: "Ein Benutzername darf nicht nur aus Ziffern bestehen.",
    length: "Dieser Benutzername ist zu lang.",
    checking: "Verfügbarkeit wird geprüft…",
    available: (userId: string) => `${userId} ist frei`,
    taken: "Dieser Benutzername ist schon vergeben.",
    unknown: "Die Verfügbarkeit konnte nicht geprüft werden; du kannst es trotzdem versuchen.",
  },

  password: {
    tooShort: (missing: number) => p(missing, { one: "Noch 1 Zeichen nötig", other: `Noch ${missing} Zeichen nötig` }),
    levels: ["Zu kurz", "Schwach", "Mittel", "Gut", "Stark"],
    strength: (level: string) => `Stärke: ${level}`,
    weakAdvice: "Leicht zu erraten. Mach es länger oder nimm ein paar Wörter, die nichts miteinander zu tun haben.",
    mismatch: "Die Passwörter stimmen nicht überein.",
    match: "Die Passwörter stimmen überein.",
  },

  token: {
    checking: "Token wird geprüft…",
    valid: "Dieses Token ist gültig.",
    invalid: "Dieses Token ist ungültig: Vielleicht ist es vertippt, abgelaufen, aufgebraucht oder deaktiviert.",
    unknown: "Das Token konnte gerade nicht geprüft werden; es wird bei der Registrierung geprüft.",
    prefilled: "Aus deinem Einladungslink übernommen.",
    exhausted: "Dieses Token ist aufgebraucht.",
    disabled: "Dieses Token wurde deaktiviert.",
    expired: "Dieses Token ist abgelaufen.",
  },

  invite: {
    checking: "Deine Einladung wird geprüft…",
    valid: "Deine Einladung ist gültig",
    validText: (server: string) => `Wähle unten einen Benutzernamen und ein Passwort, um dein Konto auf ${server} zu erstellen.`,
    validUntil: (when: string) => `Sie gilt bis ${when}.`,
    exhausted: "Diese Einladung ist aufgebraucht",
    exhaustedText:
      "Sie wurde schon so oft genutzt wie möglich. Bitte die Person, die dich eingeladen hat, um eine neue Einladung.",
    disabled: "Diese Einladung wurde zurückgezogen",
    disabledText: "Die Admins des Servers haben sie abgeschaltet. Bitte die Person, die dich eingeladen hat, um eine neue.",
    expired: "Diese Einladung ist abgelaufen",
    expiredText: "Bitte die Person, die dich eingeladen hat, um eine neue Einladung.",
    unknown: "Diese Einladung ist hier nicht bekannt",
    unknownText: "Prüfe, ob du den ganzen Link geöffnet hast, oder bitte die Person, die dich eingeladen hat, um eine neue.",
    invalid: "Diese Einladung kann nicht verwendet werden",
    invalidText:
      "Vielleicht ist sie aufgebraucht, abgelaufen oder zurückgezogen. Bitte die Person, die dich eingeladen hat, um eine neue.",
    unchecked: "Deine Einladung konnte gerade nicht geprüft werden",
    uncheckedText: "Du kannst dich trotzdem registrieren: Sie wird geprüft, wenn du dein Konto erstellst.",
    another: "Ich habe einen anderen Einladungscode",
  },

  errors: {
    M_USER_IN_USE: "Dieser Benutzername ist schon vergeben. Bitte wähle einen anderen.",
    M_INVALID_USERNAME: "Dieser Benutzername kann nicht verwendet werden.",
    M_EXCLUSIVE: "Dieser Benutzername ist auf diesem Server reserviert. Bitte wähle einen anderen.",
    M_PASSWORD_TOO_SHORT: "Das Passwort ist für diesen Server zu kurz.",
    M_PASSWORD_NO_DIGIT: "Das Passwort muss mindestens eine Ziffer enthalten.",
    M_PASSWORD_NO_SYMBOL: "Das Passwort muss mindestens ein Sonderzeichen enthalten.",
    M_PASSWORD_NO_UPPERCASE: "Das Passwort muss mindestens einen Großbuchstaben enthalten.",
    M_PASSWORD_NO_LOWERCASE: "Das Passwort muss mindestens einen Kleinbuchstaben enthalten.",
    M_WEAK_PASSWORD: "Das Passwort ist zu schwach. Bitte wähle ein stärkeres.",
    M_UNAUTHORIZED: "Das Registrierungstoken wurde nicht angenommen.",
    M_FORBIDDEN: "Die Registrierung auf diesem Server ist geschlossen.",
    M_LIMIT_EXCEEDED: "Zu viele Versuche. Bitte warte einen Moment.",
    M_NOT_FOUND: "Dieser Homeserver steht für die Registrierung nicht zur Verfügung.",
    M_MISSING_PARAM: "Bitte fülle alle Pflichtfelder aus.",
    M_INVALID_PARAM: "Einige Angaben sind ungültig.",
    M_NOT_JSON: "Das Formular konnte nicht gesendet werden. Bitte lade die Seite neu.",
    M_BAD_JSON: "Das Formular konnte nicht gesendet werden. Bitte lade die Seite neu.",
    M_UNKNOWN: "Der Homeserver konnte das Konto gerade nicht anlegen. Bitte versuche es später noch einmal.",
    NETWORK: "Dein Konto wurde nicht erstellt: Das Portal war nicht erreichbar.",
  },
  errorFallback: "Dein Konto konnte nicht erstellt werden.",
  errorTitle: "Registrierung fehlgeschlagen",

  success: {
    title: "Dein Konto ist bereit",
    yourId: "Deine Matrix-ID",
    copy: "Kopieren",
    copied: "Kopiert",
    copyId: "Deine Matrix-ID kopieren",
    copyServer: "Die Homeserver-Adresse kopieren",
    howTo: "So meldest du dich an",
    step1: "Installiere eine Matrix-App (jede funktioniert):",
    step2: (server: string) => `Wähle „Anmelden“ und gib ${server} ein, wenn die App nach einem Homeserver fragt.`,
    homeserver: "Homeserver",
    step3: "Melde dich mit deinem Benutzernamen und dem Passwort an, das du gerade gewählt hast.",
    platforms: { web: "Browser", desktop: "Computer", ios: "iPhone & iPad", android: "Android", other: "Weitere" },
    another: "Noch ein Konto erstellen",
  },

  brandingDefaults: {
    appTitle: "Matrix-Registrierung",
    subtitle: "Erstelle dein Matrix-Konto",
    welcomeHeadline: "Willkommen",
    registrationText:
      "Wähle einen Benutzernamen und ein Passwort. Für die Registrierung brauchst du das Registrierungstoken (den Einladungscode), das du bekommen hast.",
    successText: "Dein Konto ist bereit. Melde dich in einer beliebigen Matrix-App mit deinem Benutzernamen und Passwort an.",
    usernameHint: "Nur Kleinbuchstaben, Ziffern und . _ = -",
  },

  language: "Sprache",

  footer: {
    privacy: "Datenschutz",
    terms: "Nutzungsbedingungen",
    imprint: "Impressum",
    support: "Hilfe",
    contact: "Kontakt",
  },
} satisfies PublicMessages;
