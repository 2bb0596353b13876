import { useEffect, useState } from "preact/hooks";
import { LanguagePicker } from "../../../common/components/language-picker.tsx";
import { attempt, confirmDialog } from "../../../common/components/notify.tsx";
import { Card, ErrorMessage, Field, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { useAsync } from "../../../common/use-async.ts";
import { clearAuth, getAuth, getRecovery, setAuth, setRecovery } from "../api/system.ts";
import { isMissingEndpoint } from "../components/ui.tsx";
import { automaticLanguage, LANGUAGE_KEY } from "../i18n.ts";
import { S } from "../strings.ts";

function AuthSettings() {
  const auth = useAsync((signal) => getAuth(signal), []);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (auth.data?.username) setUsername(auth.data.username);
  }, [auth.data]);

  const errors = {
    password: submitted && password.length < 8 ? S.settings.tooShort : null,
    repeat: submitted && repeat !== password ? S.settings.mismatch : null,
  };
  const fromEnv = auth.data?.source === "env";

  const save = async (event: Event) => {
    event.preventDefault();
    setSubmitted(true);
    if (password.length < 8 || repeat !== password || !username.trim()) return;
    setBusy(true);
    const result = await attempt(S.settings.setAuth, () => setAuth(username.trim(), password), S.settings.authSaved);
    setBusy(false);
    if (result) {
      auth.setData(result);
      setPassword("");
      setRepeat("");
      setSubmitted(false);
    }
  };
  const remove = async () => {
    const ok = await confirmDialog({
      title: S.settings.clearAuthTitle,
      text: S.settings.clearAuthText,
      confirmLabel: S.settings.clearAuth,
      danger: true,
    });
    if (!ok) return;
    const result = await attempt(S.settings.clearAuth, clearAuth, S.settings.authCleared);
    if (result) auth.setData(result);
  };

  return (
    <Card title={S.settings.auth}>
      <p class="muted">{S.settings.authText}</p>
      {auth.error ? <ErrorMessage error={auth.error} onRetry={() => auth.reload()} /> : null}
      {auth.loading && !auth.data ? <Loading /> : null}
      {auth.data ? (
        <>
          <p data-testid="auth-status">
            <strong>{auth.data.enabled ? S.settings.authOn(auth.data.username ?? "") : S.settings.authOff}</strong>
            {fromEnv ? <span class="muted"> {S.settings.authEnv}</span> : null}
          </p>
          {!fromEnv ? (
            <form class="stack" onSubmit={save} noValidate>
              <Field label={S.settings.username}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    autocomplete="username"
                    maxLength={64}
                    required
                    value={username}
                    onInput={(e) => setUsername(e.currentTarget.value)}
                  />
                )}
              </Field>
              <Field label={S.settings.password} hint={S.settings.passwordHint} error={errors.password}>
                {(props) => (
                  <input
                    {...props}
                    type="password"
                    autocomplete="new-password"
                    value={password}
                    onInput={(e) => setPassword(e.currentTarget.value)}
                  />
                )}
              </Field>
              <Field label={S.settings.confirmPassword} error={errors.repeat}>
                {(props) => (
                  <input
                    {...props}
                    type="password"
                    autocomplete="new-password"
                    value={repeat}
                    onInput={(e) => setRepeat(e.currentTarget.value)}
                  />
                )}
              </Field>
              <div class="button-row">
                <button type="submit" class="btn btn-primary" disabled={busy}>
                  {S.settings.setAuth}
                </button>
                {auth.data.enabled ? (
                  <button type="button" class="btn btn-danger-outline" onClick={remove}>
                    {S.settings.clearAuth}
                  </button>
                ) : null}
              </div>
            </form>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

function RecoverySettingsCard() {
  const recovery = useAsync((signal) => getRecovery(signal), []);
  const [enabled, setEnabled] = useState(true);
  const [seconds, setSeconds] = useState(60);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (recovery.data) {
      setEnabled(recovery.data.autoRecoveryEnabled);
      setSeconds(Math.round(recovery.data.recoveryIntervalMs / 1000));
    }
  }, [recovery.data]);
  const invalid = !Number.isFinite(seconds) || seconds < 10 || seconds > 3600;
  const save = async (event: Event) => {
    event.preventDefault();
    if (invalid) return;
    setBusy(true);
    const result = await attempt(
      S.settings.recovery,
      () => setRecovery({ autoRecoveryEnabled: enabled, recoveryIntervalMs: Math.round(seconds * 1000) }),
      S.settings.recoverySaved,
    );
    setBusy(false);
    if (result && typeof result === "object" && "recoveryIntervalMs" in result) recovery.setData(result);
  };
  const missing = isMissingEndpoint(recovery.error);
  return (
    <Card title={S.settings.recovery}>
      <p class="muted">{S.settings.recoveryText}</p>
      {recovery.error ? (
        <ErrorMessage
          error={missing ? S.common.notAvailable(S.settings.recoveryFeature) : recovery.error}
          onRetry={() => recovery.reload()}
        />
      ) : null}
      {recovery.loading && !recovery.data ? <Loading /> : null}
      {recovery.data ? (
        <form class="stack" onSubmit={save} noValidate>
          <label class="check">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
            {S.settings.autoRecovery}
          </label>
          <Field label={S.settings.interval} hint={S.settings.intervalHint} error={invalid ? S.settings.intervalInvalid : null}>
            {(props) => (
              <input
                {...props}
                type="number"
                inputMode="numeric"
                min={10}
                max={3600}
                value={seconds}
                disabled={!enabled}
                onInput={(e) => setSeconds(e.currentTarget.valueAsNumber)}
              />
            )}
          </Field>
          <div class="button-row">
            <button type="submit" class="btn btn-primary" disabled={busy || invalid}>
              {S.common.save}
            </button>
          </div>
        </form>
      ) : null}
    </Card>
  );
}

export function SettingsPage() {
  return (
    <>
      <PageHeader title={S.settings.title} />
      <div class="grid">
        <Card title={S.settings.language}>
          <LanguagePicker storageKey={LANGUAGE_KEY} automatic={automaticLanguage()} hint={S.settings.languageHint} />
        </Card>
        <AuthSettings />
        <RecoverySettingsCard />
      </div>
    </>
  );
}
