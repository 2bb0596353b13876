import { useState } from "preact/hooks";
import { Toasts } from "../../../common/components/notify.tsx";
import { ErrorMessage, Field } from "../../../common/components/ui.tsx";
import { useStore } from "../../../common/store.ts";
import { signUpUrl } from "../lib/paths.ts";
import { LanguageSelect } from "../public/language-select.tsx";
import { A } from "../strings/admin.ts";
import { login } from "./api.ts";
import { session } from "./session.ts";

/** E-mail and password; a refusal (wrong password, rate limit, portal away) is shown above the form. */
export function LoginPage() {
  const { demo, expired } = useStore(session);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await login(email.trim(), password);
      session.set((s) => ({ ...s, state: "in", user: answer.user, expired: false }));
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };

  return (
    <div class="login-page">
      <main class="login-card card">
        <div class="login-brand">
          <svg class="logo" viewBox="0 0 24 24" aria-hidden="true">
            <rect width="24" height="24" rx="6" />
            <path fill="#fff" d="M6 5h2v14H6zm10 0h2v14h-2zM9 9h6v2H9z" />
          </svg>
          <span>{A.app.title}</span>
          {demo ? (
            <span class="demo-badge" data-testid="demo-badge" title={A.app.demoTitle}>
              {A.app.demo}
            </span>
          ) : null}
        </div>
        <h1 id="page-title">{A.login.title}</h1>
        {expired ? <p class="notice">{A.login.expired}</p> : null}
        {error ? <ErrorMessage error={error} /> : null}
        <form onSubmit={submit}>
          <Field label={A.login.email}>
            {(props) => (
              <input
                {...props}
                type="email"
                autocomplete="username"
                required
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label={A.login.password}>
            {(props) => (
              <input
                {...props}
                type="password"
                autocomplete="current-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" class="btn btn-primary btn-block" disabled={busy}>
            {busy ? A.login.signingIn : A.login.submit}
          </button>
        </form>
        {demo ? <p class="hint">{A.login.demoHint}</p> : null}
        <div class="login-footer">
          <a href={signUpUrl()}>{A.login.toSignUp}</a>
          <LanguageSelect label={A.common.language} automatic={A.common.languageAutomatic} className="language-picker" />
        </div>
      </main>
      <Toasts />
    </div>
  );
}
