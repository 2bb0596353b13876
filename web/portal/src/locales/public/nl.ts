/** The public sign-up page in Dutch (docs/i18n.md). Informal "je", as Home Assistant's and Element's Dutch. */
import { plurals } from "../../../../common/i18n.ts";
import { P, type PublicMessages } from "../../strings/public.ts";

const p = plurals("nl");

export default {
  // TODO(mas23): English until the hand-off to MAS is translated (issue 23).
  mas: P.mas,
  demo: "DEMO",
  demoTitle: "Demomodus: accounts worden aangemaakt op een gesimuleerde homeserver en verdwijnen als het portaal herstart",
  loading: "Laden…",
  noServer: "Deze aanmeldpagina is niet beschikbaar",
  noServerText: "Hier is geen homeserver ingesteld voor registratie. Controleer de link die je hebt gekregen.",
  serverClosed: "Registratie is gesloten",
  serverClosedText: "Deze homeserver neemt op dit moment geen nieuwe accounts aan.",
  loadFailed: "De aanmeldpagina kon niet worden geladen",
  retry: "Opnieuw proberen",
  unreachable: (reason: string) => `Het portaal is niet bereikbaar (${reason}). Controleer je verbinding en probeer het opnieuw.`,

  form: {
    label: "Account aanmaken",
    username: "Gebruikersnaam",
    usernamePreview: (userId: string) => `Je Matrix-ID wordt ${userId}`,
    displayName: "Weergavenaam",
    displayNameHint: "Optioneel: de naam die anderen zien. Je kunt hem later wijzigen.",
    password: "Wachtwoord",
    passwordHint:
      "Minstens 8 tekens. Een paar woorden die niets met elkaar te maken hebben, geven een sterk wachtwoord dat je makkelijk onthoudt.",
    showPassword: "Wachtwoord tonen",
    hidePassword: "Wachtwoord verbergen",
    confirmPassword: "Wachtwoord bevestigen",
    token: "Registratietoken",
    tokenHint: "De uitnodigingscode die je hebt gekregen.",
    submit: "Account aanmaken",
    submitting: "Je account wordt aangemaakt…",
    legalPrefix: "Door een account aan te maken, ga je akkoord met",
    terms: "de gebruiksvoorwaarden",
    privacy: "het privacybeleid",
    and: "en",
  },

  username: {
    empty: "Kies een gebruikersnaam.",
    characters: "Gebruik alleen kleine letters a–z, cijfers 0–9 en . _ = -",
    underscore: "Een gebruikersnaam mag niet met _ beginnen",
    digits: "Een gebruikersnaam mag niet alleen uit cijfers bestaan.",
    length: "Deze gebruikersnaam is te lang.",
    checking: "Beschikbaarheid controleren…",
    available: (userId: string) => `${userId} is beschikbaar`,
    taken: "Deze gebruikersnaam is al in gebruik.",
    unknown: "De beschikbaarheid kon niet worden gecontroleerd; je kunt het toch proberen.",
  },

  password: {
    tooShort: (missing: number) => p(missing, { one: "Nog 1 teken nodig", other: `Nog ${missing} tekens nodig` }),
    levels: ["Te kort", "Zwak", "Redelijk", "Goed", "Sterk"],
    strength: (level: string) => `Sterkte: ${level}`,
    weakAdvice: "Makkelijk te raden. Maak het langer, of gebruik een paar woorden die niets met elkaar te maken hebben.",
    mismatch: "De wachtwoorden komen niet overeen.",
    match: "De wachtwoorden komen overeen.",
  },

  token: {
    checking: "Token controleren…",
    valid: "Dit token is geldig.",
    invalid: "Dit token is niet geldig: misschien is het verkeerd getypt, verlopen, opgebruikt of uitgeschakeld.",
    unknown: "Het token kon nu niet worden gecontroleerd; dat gebeurt bij het aanmelden.",
    prefilled: "Ingevuld vanuit je uitnodigingslink.",
    exhausted: "Dit token is opgebruikt.",
    disabled: "Dit token is uitgeschakeld.",
    expired: "Dit token is verlopen.",
  },

  invite: {
    checking: "Je uitnodiging controleren…",
    valid: "Je uitnodiging is geldig",
    validText: (server: string) => `Kies hieronder een gebruikersnaam en een wachtwoord om je account op ${server} aan te maken.`,
    validUntil: (when: string) => `Ze is geldig tot ${when}.`,
    exhausted: "Deze uitnodiging is opgebruikt",
    exhaustedText: "Ze is al zo vaak gebruikt als mogelijk was. Vraag degene die je heeft uitgenodigd om een nieuwe uitnodiging.",
    disabled: "Deze uitnodiging is ingetrokken",
    disabledText: "De beheerders van de server hebben ze uitgeschakeld. Vraag degene die je heeft uitgenodigd om een nieuwe.",
    expired: "Deze uitnodiging is verlopen",
    expiredText: "Vraag degene die je heeft uitgenodigd om een nieuwe uitnodiging.",
    unknown: "Deze uitnodiging is hier niet bekend",
    unknownText: "Controleer of je de hele link hebt geopend, of vraag degene die je heeft uitgenodigd om een nieuwe.",
    invalid: "Deze uitnodiging kan niet worden gebruikt",
    invalidText: "Misschien is ze opgebruikt, verlopen of ingetrokken. Vraag degene die je heeft uitgenodigd om een nieuwe.",
    unchecked: "Je uitnodiging kon nu niet worden gecontroleerd",
    uncheckedText: "Je kunt je toch aanmelden: ze wordt gecontroleerd als je je account aanmaakt.",
    another: "Ik heb een andere uitnodigingscode",
  },

  errors: {
    M_USER_IN_USE: "Deze gebruikersnaam is al in gebruik. Kies een andere.",
    M_INVALID_USERNAME: "Deze gebruikersnaam kan niet worden gebruikt.",
    M_EXCLUSIVE: "Deze gebruikersnaam is gereserveerd op deze server. Kies een andere.",
    M_PASSWORD_TOO_SHORT: "Het wachtwoord is te kort voor deze server.",
    M_PASSWORD_NO_DIGIT: "Het wachtwoord moet minstens één cijfer bevatten.",
    M_PASSWORD_NO_SYMBOL: "Het wachtwoord moet minstens één symbool bevatten.",
    M_PASSWORD_NO_UPPERCASE: "Het wachtwoord moet minstens één hoofdletter bevatten.",
    M_PASSWORD_NO_LOWERCASE: "Het wachtwoord moet minstens één kleine letter bevatten.",
    M_WEAK_PASSWORD: "Het wachtwoord is te zwak. Kies een sterker wachtwoord.",
    M_UNAUTHORIZED: "Het registratietoken werd niet geaccepteerd.",
    M_FORBIDDEN: "Registratie is gesloten op deze server.",
    M_LIMIT_EXCEEDED: "Te veel pogingen. Wacht even.",
    M_NOT_FOUND: "Deze homeserver is niet beschikbaar voor registratie.",
    M_MISSING_PARAM: "Vul alle verplichte velden in.",
    M_INVALID_PARAM: "Sommige gegevens zijn niet geldig.",
    M_NOT_JSON: "Het formulier kon niet worden verzonden. Laad de pagina opnieuw.",
    M_BAD_JSON: "Het formulier kon niet worden verzonden. Laad de pagina opnieuw.",
    M_UNKNOWN: "De homeserver kon het account nu niet aanmaken. Probeer het later opnieuw.",
    NETWORK: "Je account is niet aangemaakt: het portaal was niet bereikbaar.",
  },
  errorFallback: "Je account kon niet worden aangemaakt.",
  errorTitle: "Aanmelden mislukt",

  success: {
    title: "Je account is klaar",
    yourId: "Je Matrix-ID",
    copy: "Kopiëren",
    copied: "Gekopieerd",
    copyId: "Je Matrix-ID kopiëren",
    copyServer: "Het adres van de homeserver kopiëren",
    howTo: "Zo log je in",
    step1: "Installeer een Matrix-app (elke app werkt):",
    step2: (server: string) => `Kies ‘Inloggen’ en vul ${server} in als de app om een homeserver vraagt.`,
    homeserver: "Homeserver",
    step3: "Log in met je gebruikersnaam en het wachtwoord dat je net hebt gekozen.",
    platforms: { web: "Browser", desktop: "Computer", ios: "iPhone en iPad", android: "Android", other: "Overig" },
    another: "Nog een account aanmaken",
  },

  brandingDefaults: {
    appTitle: "Matrix-registratie",
    subtitle: "Maak je Matrix-account aan",
    welcomeHeadline: "Welkom",
    registrationText:
      "Kies een gebruikersnaam en een wachtwoord. Om je aan te melden heb je het registratietoken (uitnodigingscode) nodig die je hebt gekregen.",
    successText: "Je account is klaar. Log in met een Matrix-app naar keuze, met je gebruikersnaam en wachtwoord.",
    usernameHint: "Alleen kleine letters, cijfers en . _ = -",
  },

  language: "Taal",

  footer: {
    privacy: "Privacy",
    terms: "Voorwaarden",
    imprint: "Colofon",
    support: "Hulp",
    contact: "Contact",
  },
} satisfies PublicMessages;
