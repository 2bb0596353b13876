/**
 * Every string the public sign-up page shows, in one place (English). Branding texts (title, headline, registration
 * and success text, hints) come from the published branding instead. Functions take the values they interpolate.
 * The admin console's strings are in admin.ts beside this file (a separate bundle, loaded only on /admin).
 * Translations: `web/portal/src/locales/public/<language>.ts` (docs/i18n.md).
 */

import { BRANDING_DEFAULTS } from "../../../../portal/src/contract.ts";
import type { Messages } from "../../../common/i18n.ts";

/**
 * The sign-up refusals in English, one per `errorCode` of POST /api/register. `P.errors` is a copy that a translation
 * replaces; this one stays English, so the page can tell whether the portal's own (English) message says more.
 */
export const ENGLISH_ERRORS = {
  M_USER_IN_USE: "This username is already taken. Please choose another one.",
  M_INVALID_USERNAME: "This username cannot be used.",
  M_EXCLUSIVE: "This username is reserved on this server. Please choose another one.",
  M_PASSWORD_TOO_SHORT: "The password is too short for this server.",
  M_PASSWORD_NO_DIGIT: "The password must contain at least one digit.",
  M_PASSWORD_NO_SYMBOL: "The password must contain at least one symbol.",
  M_PASSWORD_NO_UPPERCASE: "The password must contain at least one upper-case letter.",
  M_PASSWORD_NO_LOWERCASE: "The password must contain at least one lower-case letter.",
  M_WEAK_PASSWORD: "The password is too weak. Please choose a stronger one.",
  M_UNAUTHORIZED: "The registration token was not accepted.",
  M_FORBIDDEN: "Registration is closed on this server.",
  M_LIMIT_EXCEEDED: "Too many attempts. Please wait a moment.",
  M_NOT_FOUND: "This homeserver is not available for registration.",
  M_MISSING_PARAM: "Please fill in every required field.",
  M_INVALID_PARAM: "Some of the details are not valid.",
  M_NOT_JSON: "The form could not be sent. Please reload the page.",
  M_BAD_JSON: "The form could not be sent. Please reload the page.",
  M_UNKNOWN: "The homeserver could not create the account right now. Please try again later.",
  NETWORK: "Your account was not created: the portal could not be reached.",
} as const;

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
    exhausted: "This token has been used up.",
    disabled: "This token has been disabled.",
    expired: "This token has expired.",
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

  /** The notice above the form when the page was opened from an invite link: the token's state, before any typing. */
  invite: {
    checking: "Checking your invitation…",
    valid: "Your invitation is valid",
    validText: (server: string) => `Choose a username and a password below to create your account on ${server}.`,
    validUntil: (when: string) => `It can be used until ${when}.`,
    exhausted: "This invitation has been used up",
    exhaustedText: "Every use of it has been taken. Ask the person who invited you for a new invitation.",
    disabled: "This invitation has been withdrawn",
    disabledText: "The server's administrators have switched it off. Ask the person who invited you for a new one.",
    expired: "This invitation has expired",
    expiredText: "Ask the person who invited you for a new invitation.",
    unknown: "This invitation is not known here",
    unknownText: "Check that you opened the whole link, or ask the person who invited you for a new one.",
    invalid: "This invitation cannot be used",
    invalidText: "It may be used up, expired or withdrawn. Ask the person who invited you for a new one.",
    unchecked: "Your invitation could not be checked right now",
    uncheckedText: "You can still sign up: it is checked when you create your account.",
    another: "I have another invitation code",
  },

  /** One message per `errorCode` of POST /api/register (which input each is about: ERROR_FIELDS in signup-form.tsx). */
  errors: { ...ENGLISH_ERRORS },
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

  /**
   * The built-in branding texts (BRANDING_DEFAULTS, in English): a profile that leaves one unchanged shows it in the
   * visitor's language; a text the admin wrote is shown as written.
   */
  brandingDefaults: {
    appTitle: BRANDING_DEFAULTS.appTitle,
    subtitle: BRANDING_DEFAULTS.subtitle,
    welcomeHeadline: BRANDING_DEFAULTS.welcomeHeadline,
    registrationText: BRANDING_DEFAULTS.registrationText,
    successText: BRANDING_DEFAULTS.successText,
    usernameHint: BRANDING_DEFAULTS.usernameHint,
  },

  /** The language picker in the footer (the options are each language's own name). */
  language: "Language",

  footer: {
    privacy: "Privacy",
    terms: "Terms",
    imprint: "Imprint",
    support: "Support",
    contact: "Contact",
  },
} as const;

/** What a translation of the public page provides (`web/portal/src/locales/public/<language>.ts`). */
export type PublicMessages = Messages<typeof P>;
