import { useRef, useState } from "preact/hooks";
import { currentLanguage } from "../../../common/i18n.ts";
import { ApiError } from "../api/client.ts";
import { register } from "../api/public.ts";
import type { PublicBranding, PublicServer } from "../api/public-types.ts";
import { passwordStrength } from "../lib/password-strength.ts";
import { checkUsername } from "../lib/username-rules.ts";
import { ENGLISH_ERRORS, P } from "../strings/public.ts";
import { brandingText } from "./branding-text.ts";
import { type FieldStatus, SignupField } from "./field.tsx";
import { deadInvite, InviteNotice } from "./invite-notice.tsx";
import { type TokenValidity, useAvailability, useTokenValidity } from "./live-checks.ts";

type FieldName = "username" | "password" | "confirm" | "token";

/** The password inputs' type: Preact's typings tie attributes to one input type, a toggled one is either. */
const revealType = (shown: boolean) => (shown ? "text" : "password") as "password";

/** A refused sign-up: the UI's message for the code, the portal's own sentence when it adds detail, and the field. */
interface Failure {
  code: string;
  text: string;
  detail: string | null;
  /** The detail's language: the portal's messages are English (the network failure's is the page's own). */
  detailLang: string | undefined;
  field: FieldName | null;
}

/** Which input each refusal of POST /api/register is about (the others concern the whole form). */
const ERROR_FIELDS: Partial<Record<string, FieldName>> = {
  M_USER_IN_USE: "username",
  M_INVALID_USERNAME: "username",
  M_EXCLUSIVE: "username",
  M_PASSWORD_TOO_SHORT: "password",
  M_PASSWORD_NO_DIGIT: "password",
  M_PASSWORD_NO_SYMBOL: "password",
  M_PASSWORD_NO_UPPERCASE: "password",
  M_PASSWORD_NO_LOWERCASE: "password",
  M_WEAK_PASSWORD: "password",
  M_UNAUTHORIZED: "token",
};

/** The page's message for an `errorCode`, in the visitor's language; undefined for a code it does not know. */
const errorText = (code: string): string | undefined =>
  Object.hasOwn(P.errors, code) ? P.errors[code as keyof typeof P.errors] : undefined;

/** The portal's message adds something (the reason a token was refused, the rule, the wait) unless it says the same. */
function failureOf(error: unknown): Failure {
  const code = error instanceof ApiError ? (error.code ?? "") : "";
  const known = errorText(code);
  const message = error instanceof Error ? error.message : String(error);
  const text = known ?? P.errorFallback;
  // The portal speaks English: its message is shown only when it says more than the page's own (e.g. the wait).
  const english = Object.hasOwn(ENGLISH_ERRORS, code) ? ENGLISH_ERRORS[code as keyof typeof ENGLISH_ERRORS] : null;
  const detail = message && message !== text && message !== english ? message : null;
  const detailLang = code === "NETWORK" || currentLanguage() === "en" ? undefined : "en";
  return { code, text, detail, detailLang, field: known ? (ERROR_FIELDS[code] ?? null) : null };
}

/** What the refused field says under itself: the portal's detail, unless that is English on a translated page. */
const fieldText = (failure: Failure | null): string =>
  failure ? (failure.detailLang ? failure.text : (failure.detail ?? failure.text)) : "";

function tokenStatus(validity: TokenValidity, prefilled: boolean): FieldStatus {
  switch (validity.state) {
    case "checking":
      return { kind: "pending", text: P.token.checking };
    case "valid":
      return { kind: "ok", text: P.token.valid };
    case "exhausted":
    case "disabled":
    case "expired":
      return { kind: "error", text: P.token[validity.state] };
    // A typed token the server does not know is most likely mistyped: the general sentence says so first.
    case "unknown":
    case "invalid":
      return { kind: "error", text: P.token.invalid };
    case "unchecked":
      return { kind: "info", text: P.token.unknown };
    default:
      return prefilled ? { kind: "info", text: P.token.prefilled } : null;
  }
}

/**
 * The sign-up form: live username rules and availability, password strength and confirmation, the token checked
 * without being used, then POST /api/register. Every refusal is explained (by `errorCode`) at the top and on its
 * field, which takes the focus. In the branding preview (`preview`) nothing is sent.
 *
 * Opened from an invite link (`initialToken`), it first says what the invitation is worth (InviteNotice); an
 * invitation that can no longer be used shows only that, with a way to type another code instead.
 */
export function SignupForm({
  server,
  branding,
  initialToken,
  preview = false,
  onSuccess,
}: {
  server: PublicServer;
  branding: PublicBranding;
  initialToken: string;
  preview?: boolean;
  onSuccess?: (userId: string) => void;
}) {
  const [username, setUsername] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [token, setToken] = useState(initialToken);
  /** The visitor chose to type another code after a dead invitation. */
  const [otherCode, setOtherCode] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [touched, setTouched] = useState<Record<FieldName, boolean>>({
    username: false,
    password: false,
    confirm: false,
    token: false,
  });
  const refs = {
    username: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    confirm: useRef<HTMLInputElement>(null),
    token: useRef<HTMLInputElement>(null),
  };
  const alertRef = useRef<HTMLDivElement>(null);

  const rules = checkUsername(username, server.serverName);
  const userId = `@${rules.name}:${server.serverName}`;
  const availability = useAvailability(rules.problem === null ? rules.name : undefined, server.id, !preview);
  const validity = useTokenValidity(token, server.id, !preview);
  const strength = passwordStrength(password, rules.name);
  const failureOn = (field: FieldName) => (failure?.field === field ? failure : null);

  let usernameStatus: FieldStatus = null;
  const usernameFailure = failureOn("username");
  if (usernameFailure) usernameStatus = { kind: "error", text: fieldText(usernameFailure) };
  else if (rules.problem && (touched.username || (rules.problem !== "empty" && username !== ""))) {
    usernameStatus = { kind: "error", text: P.username[rules.problem] };
  } else if (rules.problem === null) {
    if (availability.state === "checking") usernameStatus = { kind: "pending", text: P.username.checking };
    else if (availability.state === "available") usernameStatus = { kind: "ok", text: P.username.available(userId) };
    else if (availability.state === "unavailable")
      usernameStatus = { kind: "error", text: errorText(availability.code) ?? availability.message };
    else if (availability.state === "unknown") usernameStatus = { kind: "info", text: P.username.unknown };
    else usernameStatus = { kind: "info", text: P.form.usernamePreview(userId) };
  }

  const level = P.password.levels[strength];
  let passwordStatus: FieldStatus = null;
  if (failureOn("password")) passwordStatus = { kind: "error", text: fieldText(failure) };
  else if (password.length > 0 && password.length < 8) {
    passwordStatus = { kind: touched.password ? "error" : "info", text: P.password.tooShort(8 - password.length) };
  } else if (password.length >= 8) {
    passwordStatus = {
      kind: strength <= 1 ? "info" : "ok",
      text: `${P.password.strength(level)}${strength <= 1 ? `. ${P.password.weakAdvice}` : ""}`,
    };
  } else if (touched.password) passwordStatus = { kind: "error", text: P.password.tooShort(8) };

  let confirmStatus: FieldStatus = null;
  if (confirm !== "" && confirm !== password && (touched.confirm || confirm.length >= password.length)) {
    confirmStatus = { kind: "error", text: P.password.mismatch };
  } else if (confirm !== "" && confirm === password) confirmStatus = { kind: "ok", text: P.password.match };
  else if (touched.confirm && confirm === "") confirmStatus = { kind: "error", text: P.password.mismatch };

  const fromInvite = initialToken !== "" && token === initialToken && !otherCode;
  let tokenFieldStatus = tokenStatus(validity, fromInvite);
  if (failureOn("token")) tokenFieldStatus = { kind: "error", text: fieldText(failure) };
  else if (touched.token && token.trim() === "") tokenFieldStatus = { kind: "error", text: P.errors.M_MISSING_PARAM };

  /** The field's input handler: a refusal about this field goes once the visitor edits it. */
  const editing = (field: FieldName, set: (value: string) => void) => (event: { currentTarget: HTMLInputElement }) => {
    set(event.currentTarget.value);
    if (failure?.field === field) setFailure(null);
  };
  /** Leaving a field with something in it: its rule applies from now on, not only on submit. */
  const leaving = (field: FieldName, value: string) => () => value !== "" && setTouched((t) => ({ ...t, [field]: true }));

  const focus = (field: FieldName | null) => {
    if (field) refs[field].current?.focus();
    else alertRef.current?.focus();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (preview || submitting) return;
    setTouched({ username: true, password: true, confirm: true, token: true });
    setFailure(null);
    const firstProblem: FieldName | null =
      rules.problem !== null
        ? "username"
        : password.length < 8
          ? "password"
          : confirm !== password
            ? "confirm"
            : token.trim() === ""
              ? "token"
              : null;
    if (firstProblem) {
      focus(firstProblem);
      return;
    }
    setSubmitting(true);
    try {
      const result = await register({
        username: rules.name,
        password,
        confirmPassword: confirm,
        token: token.trim(),
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
        serverId: server.id,
      });
      onSuccess?.(result.userId);
    } catch (error) {
      // The message stays until the visitor edits the field it is about.
      const next = failureOf(error);
      setFailure(next);
      setSubmitting(false);
      requestAnimationFrame(() => focus(next.field));
    }
  };

  const usernameHint = brandingText(branding, "usernameHint");
  const usernameHintShown =
    usernameHint.text && usernameHint.lang ? <span lang={usernameHint.lang}>{usernameHint.text}</span> : usernameHint.text;

  const legal: ({ href: string; text: string } | null)[] = [
    branding.termsUrl ? { href: branding.termsUrl, text: P.form.terms } : null,
    branding.privacyPolicyUrl ? { href: branding.privacyPolicyUrl, text: P.form.privacy } : null,
  ];
  const legalLinks = legal.filter((item): item is { href: string; text: string } => item !== null);

  const notice = fromInvite && !preview ? <InviteNotice validity={validity} serverName={server.serverName} /> : null;
  if (notice && deadInvite(validity)) {
    return (
      <div class="su-form" data-testid="invite-dead">
        {notice}
        <button
          type="button"
          class="su-link-button"
          onClick={() => {
            setOtherCode(true);
            setToken("");
            requestAnimationFrame(() => refs.token.current?.focus());
          }}
        >
          {P.invite.another}
        </button>
      </div>
    );
  }

  return (
    <form class="su-form" onSubmit={submit} noValidate aria-label={P.form.label} data-testid="signup-form">
      {notice}
      {failure ? (
        <div class="su-alert" role="alert" tabIndex={-1} ref={alertRef} data-testid="signup-error" data-code={failure.code}>
          <strong>{failure.text}</strong>
          {failure.detail ? <span lang={failure.detailLang}>{failure.detail}</span> : null}
        </div>
      ) : null}
      <SignupField label={P.form.username} hint={usernameHintShown} status={usernameStatus} testId="field-username">
        {(props) => (
          <div class="su-affix">
            <span aria-hidden="true">@</span>
            <input
              {...props}
              ref={refs.username}
              type="text"
              name="username"
              autocomplete="username"
              autocapitalize="none"
              spellcheck={false}
              required
              maxLength={255}
              value={username}
              onInput={editing("username", setUsername)}
              onBlur={leaving("username", username)}
            />
            <span aria-hidden="true" class="su-affix-server">
              :{server.serverName}
            </span>
          </div>
        )}
      </SignupField>
      <SignupField label={P.form.displayName} hint={P.form.displayNameHint}>
        {(props) => (
          <input
            {...props}
            type="text"
            name="displayName"
            autocomplete="nickname"
            maxLength={255}
            value={displayName}
            onInput={(e) => setDisplayName(e.currentTarget.value)}
          />
        )}
      </SignupField>
      <SignupField label={P.form.password} hint={P.form.passwordHint} status={passwordStatus} testId="field-password">
        {(props) => (
          <>
            <div class="su-password">
              <input
                {...props}
                ref={refs.password}
                type={revealType(showPassword)}
                name="password"
                autocomplete="new-password"
                required
                minLength={8}
                maxLength={512}
                value={password}
                onInput={editing("password", setPassword)}
                onBlur={leaving("password", password)}
              />
              <button
                type="button"
                class="su-reveal"
                aria-pressed={showPassword}
                aria-label={showPassword ? P.form.hidePassword : P.form.showPassword}
                onClick={() => setShowPassword(!showPassword)}
              >
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M12 5C6.5 5 2.7 9.4 1.5 12c1.2 2.6 5 7 10.5 7s9.3-4.4 10.5-7C21.3 9.4 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4z" />
                  {showPassword ? null : <path d="M3.3 2 2 3.3 20.7 22l1.3-1.3z" />}
                </svg>
              </button>
            </div>
            <div class="su-meter" data-level={strength} aria-hidden="true">
              <span />
              <span />
              <span />
              <span />
            </div>
          </>
        )}
      </SignupField>
      <SignupField label={P.form.confirmPassword} status={confirmStatus} testId="field-confirm">
        {(props) => (
          <input
            {...props}
            ref={refs.confirm}
            type={revealType(showPassword)}
            name="confirmPassword"
            autocomplete="new-password"
            required
            value={confirm}
            onInput={(e) => setConfirm(e.currentTarget.value)}
            onBlur={leaving("confirm", confirm)}
          />
        )}
      </SignupField>
      <SignupField label={P.form.token} hint={P.form.tokenHint} status={tokenFieldStatus} testId="field-token">
        {(props) => (
          <input
            {...props}
            ref={refs.token}
            type="text"
            name="token"
            autocomplete="off"
            autocapitalize="none"
            spellcheck={false}
            required
            maxLength={64}
            value={token}
            onInput={editing("token", setToken)}
          />
        )}
      </SignupField>
      {legalLinks.length > 0 ? (
        <p class="su-legal">
          {P.form.legalPrefix}{" "}
          {legalLinks.map((item, index) => (
            <span key={item.href}>
              {index > 0 ? ` ${P.form.and} ` : null}
              <a href={item.href} target="_blank" rel="noopener noreferrer">
                {item.text}
              </a>
            </span>
          ))}
          .
        </p>
      ) : null}
      <button type="submit" class="su-submit" disabled={submitting} aria-disabled={preview || undefined}>
        {submitting ? <span class="su-spinner" aria-hidden="true" /> : null}
        {submitting ? P.form.submitting : P.form.submit}
      </button>
    </form>
  );
}
