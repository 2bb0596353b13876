/** The public sign-up page in Polish (docs/i18n.md). Informal "ty", as Home Assistant's and Element's Polish. */
import { plurals } from "../../../../common/i18n.ts";
import { P, type PublicMessages } from "../../strings/public.ts";

const p = plurals("pl");

export default {
  // TODO(mas23): English until the hand-off to MAS is translated (issue 23).
  mas: P.mas,
  demo: "DEMO",
  demoTitle: "Tryb demo: konta powstają na symulowanym serwerze domowym i znikają po ponownym uruchomieniu portalu",
  loading: "Ładowanie…",
  noServer: "Ta strona rejestracji jest niedostępna",
  noServerText: "Nie skonfigurowano tu żadnego serwera domowego do rejestracji. Sprawdź otrzymany link.",
  serverClosed: "Rejestracja jest zamknięta",
  serverClosedText: "Ten serwer domowy nie przyjmuje obecnie nowych kont.",
  loadFailed: "Nie udało się wczytać strony rejestracji",
  retry: "Spróbuj ponownie",
  unreachable: (reason: string) => `Nie można połączyć się z portalem (${reason}). Sprawdź połączenie i spróbuj ponownie.`,

  form: {
    label: "Załóż konto",
    username: "Nazwa użytkownika",
    usernamePreview: (userId: string) => `Twój identyfikator Matrix to będzie ${userId}`,
    displayName: "Wyświetlana nazwa",
    displayNameHint: "Opcjonalnie: nazwa, którą widzą inni. Możesz ją później zmienić.",
    password: "Hasło",
    passwordHint: "Co najmniej 8 znaków. Kilka niezwiązanych ze sobą słów daje silne hasło, które łatwo zapamiętać.",
    showPassword: "Pokaż hasło",
    hidePassword: "Ukryj hasło",
    confirmPassword: "Powtórz hasło",
    token: "Token rejestracyjny",
    tokenHint: "Otrzymany kod zaproszenia.",
    submit: "Załóż konto",
    submitting: "Zakładanie konta…",
    legalPrefix: "Zakładając konto, akceptujesz",
    terms: "regulamin",
    privacy: "politykę prywatności",
    and: "oraz",
  },

  username: {
    empty: "Wybierz nazwę użytkownika.",
    characters: "Używaj tylko małych liter a–z, cyfr 0–9 oraz . _ = -",
    underscore: "Nazwa użytkownika nie może zaczynać się od _",
    digits: "Nazwa użytkownika nie może składać się z samych cyfr.",
    length: "Ta nazwa użytkownika jest za długa.",
    checking: "Sprawdzanie dostępności…",
    available: (userId: string) => `${userId} jest dostępny`,
    taken: "Ta nazwa użytkownika jest już zajęta.",
    unknown: "Nie udało się sprawdzić dostępności; możesz mimo to spróbować.",
  },

  password: {
    tooShort: (missing: number) =>
      p(missing, {
        one: "Potrzebny jeszcze 1 znak",
        few: `Potrzebne jeszcze ${missing} znaki`,
        many: `Potrzebnych jeszcze ${missing} znaków`,
        other: `Potrzeba jeszcze ${missing} znaku`,
      }),
    levels: ["Za krótkie", "Słabe", "Średnie", "Dobre", "Silne"],
    strength: (level: string) => `Siła: ${level}`,
    weakAdvice: "Łatwe do odgadnięcia. Wydłuż je albo użyj kilku niezwiązanych ze sobą słów.",
    mismatch: "Hasła nie są takie same.",
    match: "Hasła są takie same.",
  },

  token: {
    checking: "Sprawdzanie tokenu…",
    valid: "Ten token jest ważny.",
    invalid: "Ten token jest nieważny: może zawierać literówkę albo wygasł, został wykorzystany lub wyłączony.",
    unknown: "Nie udało się teraz sprawdzić tokenu; zostanie sprawdzony podczas rejestracji.",
    prefilled: "Uzupełniony z twojego linku z zaproszeniem.",
    exhausted: "Ten token został już wykorzystany.",
    disabled: "Ten token został wyłączony.",
    expired: "Ten token wygasł.",
  },

  invite: {
    checking: "Sprawdzanie zaproszenia…",
    valid: "Twoje zaproszenie jest ważne",
    validText: (server: string) => `Wybierz poniżej nazwę użytkownika i hasło, aby założyć konto na ${server}.`,
    validUntil: (when: string) => `Jest ważne do ${when}.`,
    exhausted: "To zaproszenie zostało już wykorzystane",
    exhaustedText: "Wykorzystano już wszystkie jego użycia. Poproś osobę, która cię zaprosiła, o nowe zaproszenie.",
    disabled: "To zaproszenie zostało wycofane",
    disabledText: "Administratorzy serwera je wyłączyli. Poproś osobę, która cię zaprosiła, o nowe.",
    expired: "To zaproszenie wygasło",
    expiredText: "Poproś osobę, która cię zaprosiła, o nowe zaproszenie.",
    unknown: "To zaproszenie nie jest tu znane",
    unknownText: "Sprawdź, czy link nie jest ucięty, albo poproś osobę, która cię zaprosiła, o nowe.",
    invalid: "Tego zaproszenia nie można użyć",
    invalidText: "Mogło zostać wykorzystane, wygasnąć albo zostać wycofane. Poproś osobę, która cię zaprosiła, o nowe.",
    unchecked: "Nie udało się teraz sprawdzić zaproszenia",
    uncheckedText: "Możesz się mimo to zarejestrować: zaproszenie zostanie sprawdzone podczas zakładania konta.",
    another: "Mam inny kod zaproszenia",
  },

  errors: {
    M_USER_IN_USE: "Ta nazwa użytkownika jest już zajęta. Wybierz inną.",
    M_INVALID_USERNAME: "Tej nazwy użytkownika nie można użyć.",
    M_EXCLUSIVE: "Ta nazwa użytkownika jest zarezerwowana na tym serwerze. Wybierz inną.",
    M_PASSWORD_TOO_SHORT: "Hasło jest za krótkie dla tego serwera.",
    M_PASSWORD_NO_DIGIT: "Hasło musi zawierać co najmniej jedną cyfrę.",
    M_PASSWORD_NO_SYMBOL: "Hasło musi zawierać co najmniej jeden symbol.",
    M_PASSWORD_NO_UPPERCASE: "Hasło musi zawierać co najmniej jedną wielką literę.",
    M_PASSWORD_NO_LOWERCASE: "Hasło musi zawierać co najmniej jedną małą literę.",
    M_WEAK_PASSWORD: "Hasło jest za słabe. Wybierz silniejsze.",
    M_UNAUTHORIZED: "Token rejestracyjny nie został przyjęty.",
    M_FORBIDDEN: "Rejestracja na tym serwerze jest zamknięta.",
    M_LIMIT_EXCEEDED: "Zbyt wiele prób. Poczekaj chwilę.",
    M_NOT_FOUND: "Ten serwer domowy nie jest dostępny do rejestracji.",
    M_MISSING_PARAM: "Wypełnij wszystkie wymagane pola.",
    M_INVALID_PARAM: "Niektóre dane są nieprawidłowe.",
    M_NOT_JSON: "Nie udało się wysłać formularza. Odśwież stronę.",
    M_BAD_JSON: "Nie udało się wysłać formularza. Odśwież stronę.",
    M_UNKNOWN: "Serwer domowy nie może teraz założyć konta. Spróbuj ponownie później.",
    NETWORK: "Konto nie zostało założone: nie udało się połączyć z portalem.",
  },
  errorFallback: "Nie udało się założyć konta.",
  errorTitle: "Rejestracja nie powiodła się",

  success: {
    title: "Twoje konto jest gotowe",
    yourId: "Twój identyfikator Matrix",
    copy: "Kopiuj",
    copied: "Skopiowano",
    copyId: "Skopiuj swój identyfikator Matrix",
    copyServer: "Skopiuj adres serwera domowego",
    howTo: "Jak się zalogować",
    step1: "Zainstaluj aplikację Matrix (dowolną):",
    step2: (server: string) => `Wybierz „Zaloguj się”, a jeśli aplikacja zapyta o serwer domowy, wpisz ${server}.`,
    homeserver: "Serwer domowy",
    step3: "Zaloguj się, podając nazwę użytkownika i nowo wybrane hasło.",
    platforms: { web: "Przeglądarka", desktop: "Komputer", ios: "iPhone i iPad", android: "Android", other: "Inne" },
    another: "Załóż kolejne konto",
  },

  brandingDefaults: {
    appTitle: "Rejestracja w Matrix",
    subtitle: "Załóż konto Matrix",
    welcomeHeadline: "Witaj",
    registrationText:
      "Wybierz nazwę użytkownika i hasło. Do rejestracji potrzebujesz otrzymanego tokenu rejestracyjnego (kodu zaproszenia).",
    successText: "Twoje konto jest gotowe. Zaloguj się w dowolnej aplikacji Matrix, podając nazwę użytkownika i hasło.",
    usernameHint: "Tylko małe litery, cyfry oraz . _ = -",
  },

  language: "Język",

  footer: {
    privacy: "Prywatność",
    terms: "Regulamin",
    imprint: "Nota prawna",
    support: "Pomoc",
    contact: "Kontakt",
  },
} satisfies PublicMessages;
