/**
 * Every string the public sign-up page shows, in one place (English). Branding texts (title, headline, registration
 * and success text, hints) come from the published branding instead. Functions take the values they interpolate.
 * The admin console's strings are in admin.ts beside this file (a separate bundle, loaded only on /admin).
 */
export const P = {
  demo: "DEMO",
  demoTitle: "Demo mode: accounts are created on a simulated homeserver and disappear when the portal restarts",
  loading: "Loading…",
  noServer: "This sign-up page is not available",
  noServerText: "No homeserver is set up for registration here. Please check the link you were given.",
  serverClosed: "Registration is closed",
  serverClosedText: "This homeserver does not accept new accounts at the moment.",
  loadFailed: "The sign-up page could not be loaded",
  retry: "Try again",
  unreachable: (reason: string) => `Cannot reach the portal (${reason}). Check your connection and try again.`,

  form: {
    label: "Create an account",
    username: "Username",
    usernamePreview: (userId: string) => `Your Matrix ID will be ${userId}`,
    displayName: "Display name",
    displayNameHint: "Optional: the name other people see. You can change it later.",
    password: "Password",
    passwordHint: "At least 8 characters. A few unrelated words make a strong, memorable password.",
    showPassword: "Show password",
    hidePassword: "Hide password",
    confirmPassword: "Confirm password",
    token: "Registration token",
    tokenHint: "The invitation code you were given.",
    submit: "Create account",
    submitting: "Creating your account…",
    legalPrefix: "By creating an account you accept",
    terms: "the terms of service",
    privacy: "the privacy policy",
    and: "and",
  },

  username: {
    empty: "Choose a username.",
    characters: "Use only lower-case letters a–z, digits 0–9 and . _ = -",
    underscore: "A username cannot begin with _",
    digits: "A username cannot consist of digits only.",
    length: "This username is too long.",
    checking: "Checking availability…",
    available: (userId: string) => `${userId} is available`,
    taken: "This username is already taken.",
    unknown: "Availability could not be checked; you can still try.",
  },

  password: {
    tooShort: (missing: number) => `${missing} more character${missing === 1 ? "" : "s"} needed`,
    levels: ["Too short", "Weak", "Fair", "Good", "Strong"] as const,
    strength: (level: string) => `Strength: ${level}`,
    weakAdvice: "Easy to guess. Make it longer, or use a few unrelated words.",
    mismatch: "The passwords do not match.",
    match: "The passwords match.",
  },

  token: {
    checking: "Checking the token…",
    valid: "This token is valid.",
    invalid: "This token is not valid: it may be mistyped, expired, used up or disabled.",
    unknown: "The token could not be checked now; it will be checked when you sign up.",
    prefilled: "Filled in from your invitation link.",
  },

  /** Servers whose accounts their Matrix Authentication Service (MAS) creates: the page checks, then hands over. */
  mas: {
    label: "Check your invitation",
    intro: (server: string) =>
      `Accounts on ${server} are created by its account service. Check your registration token here; then continue there to choose your username and password.`,
    tokenHint: "The invitation code you were given.",
    check: "Check token",
    checking: "Checking…",
    valid: "This token is valid.",
    invalid: "This token is not valid: it may be mistyped, expired, used up or revoked.",
    empty: "Enter your registration token.",
    failed: "The token could not be checked right now. Please try again in a moment.",
    continue: "Continue to create your account",
    pasteHint: "If the next page asks for a registration token, paste this one:",
    copyToken: "Copy the registration token",
  },

  /** One message per `errorCode` of POST /api/register; `field` says which input it is about. */
  errors: {
    M_USER_IN_USE: { text: "This username is already taken. Please choose another one.", field: "username" },
    M_INVALID_USERNAME: { text: "This username cannot be used.", field: "username" },
    M_EXCLUSIVE: { text: "This username is reserved on this server. Please choose another one.", field: "username" },
    M_PASSWORD_TOO_SHORT: { text: "The password is too short for this server.", field: "password" },
    M_PASSWORD_NO_DIGIT: { text: "The password must contain at least one digit.", field: "password" },
    M_PASSWORD_NO_SYMBOL: { text: "The password must contain at least one symbol.", field: "password" },
    M_PASSWORD_NO_UPPERCASE: { text: "The password must contain at least one upper-case letter.", field: "password" },
    M_PASSWORD_NO_LOWERCASE: { text: "The password must contain at least one lower-case letter.", field: "password" },
    M_WEAK_PASSWORD: { text: "The password is too weak. Please choose a stronger one.", field: "password" },
    M_UNAUTHORIZED: { text: "The registration token was not accepted.", field: "token" },
    M_FORBIDDEN: { text: "Registration is closed on this server.", field: null },
    M_LIMIT_EXCEEDED: { text: "Too many attempts. Please wait a moment.", field: null },
    M_NOT_FOUND: { text: "This homeserver is not available for registration.", field: null },
    M_MISSING_PARAM: { text: "Please fill in every required field.", field: null },
    M_INVALID_PARAM: { text: "Some of the details are not valid.", field: null },
    M_NOT_JSON: { text: "The form could not be sent. Please reload the page.", field: null },
    M_BAD_JSON: { text: "The form could not be sent. Please reload the page.", field: null },
    M_UNKNOWN: { text: "The homeserver could not create the account right now. Please try again later.", field: null },
    NETWORK: { text: "Your account was not created: the portal could not be reached.", field: null },
  } as Record<string, { text: string; field: "username" | "password" | "token" | null }>,
  errorFallback: "Your account could not be created.",
  errorTitle: "Sign-up failed",

  success: {
    title: "Your account is ready",
    yourId: "Your Matrix ID",
    copy: "Copy",
    copied: "Copied",
    copyId: "Copy your Matrix ID",
    copyServer: "Copy the homeserver address",
    howTo: "How to sign in",
    step1: "Install a Matrix app (any one works):",
    step2: (server: string) => `Choose “Sign in” and, if the app asks for a homeserver, enter ${server}.`,
    homeserver: "Homeserver",
    step3: "Sign in with your username and the password you just chose.",
    platforms: { web: "Browser", desktop: "Desktop", ios: "iPhone & iPad", android: "Android", other: "Other" },
    another: "Create another account",
  },

  footer: {
    privacy: "Privacy",
    terms: "Terms",
    imprint: "Imprint",
    support: "Support",
    contact: "Contact",
  },
} as const;
