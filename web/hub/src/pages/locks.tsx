import { useEffect, useState } from "preact/hooks";
import { attempt, confirmDialog } from "../../../common/components/notify.tsx";
import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { useAsync } from "../../../common/use-async.ts";
import { listEntities } from "../api/home-assistant.ts";
import { deleteLockCredential, listLockCredentials, setLockEnabled, setLockPin } from "../api/transfer.ts";
import type { HaEntity, LockCredential } from "../api/types.ts";
import { isMissingEndpoint } from "../components/ui.tsx";
import { formatClock, formatTime } from "../lib/format.ts";
import { S } from "../strings.ts";

const PIN = /^\d{4,8}$/;

function LockCard({
  lock,
  credential,
  onChange,
}: {
  lock: HaEntity;
  credential: LockCredential | undefined;
  onChange: () => void;
}) {
  const [pin, setPin] = useState("");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [pendingEnabled, setPendingEnabled] = useState<boolean | null>(null);
  const enabled = pendingEnabled ?? credential?.enabled ?? false;
  // The optimistic value stands until the reloaded credential agrees with it.
  useEffect(() => {
    if (pendingEnabled !== null && credential?.enabled === pendingEnabled) setPendingEnabled(null);
  }, [credential?.enabled, pendingEnabled]);
  const name = lock.name;
  const invalid = touched && !PIN.test(pin);
  const errorId = `pin-error-${lock.entity_id}`;

  const save = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    if (!PIN.test(pin)) return;
    setBusy(true);
    const ok = await attempt(
      S.locks.setPin,
      () => setLockPin(lock.entity_id, pin, credential?.enabled ?? true),
      S.locks.saved(name),
    );
    setBusy(false);
    if (ok) {
      setPin("");
      setTouched(false);
      onChange();
    }
  };
  const toggle = async (enabled: boolean) => {
    // Shown at once; back to the hub's value if the hub refuses.
    setPendingEnabled(enabled);
    setBusy(true);
    const ok = await attempt(S.locks.enabled, () => setLockEnabled(lock.entity_id, enabled));
    setBusy(false);
    if (ok) onChange();
    else setPendingEnabled(null);
  };
  const clear = async () => {
    if (
      !(await confirmDialog({
        title: S.locks.clearTitle(name),
        text: S.locks.clearText,
        confirmLabel: S.locks.clear,
        danger: true,
      }))
    ) {
      return;
    }
    setBusy(true);
    const ok = await attempt(
      S.locks.clear,
      async () => {
        await deleteLockCredential(lock.entity_id);
        return true;
      },
      S.locks.cleared(name),
    );
    setBusy(false);
    if (ok) onChange();
  };

  return (
    <Card
      title={
        <>
          {name} <code class="muted small">{lock.entity_id}</code>
        </>
      }
      data-testid="lock-card"
    >
      <p>
        <span class={`pill ${credential?.hasPin ? "pill-ok" : ""}`}>{credential?.hasPin ? S.locks.hasPin : S.locks.noPin}</span>
        {credential?.lockedOutUntil ? (
          <span class="pill pill-bad">{S.locks.lockedOut(formatClock(credential.lockedOutUntil))}</span>
        ) : null}
      </p>
      {credential ? (
        <p class="muted small">
          {credential.lastUsedAt ? S.locks.lastUsed(formatTime(credential.lastUsedAt)) : S.locks.neverUsed}
          {credential.failedAttempts > 0 ? ` · ${S.locks.failedAttempts(credential.failedAttempts)}` : ""}
        </p>
      ) : null}
      {credential?.hasPin ? (
        <label class="check">
          <input type="checkbox" checked={enabled} disabled={busy} onChange={(e) => toggle(e.currentTarget.checked)} />
          {S.locks.enabledLabel(name)}
        </label>
      ) : null}
      <form class="inline-form" onSubmit={save} noValidate>
        <label class="inline-field">
          <span>{S.locks.pinFor(name)}</span>
          <input
            type="password"
            inputMode="numeric"
            autocomplete="new-password"
            pattern="\d{4,8}"
            maxLength={8}
            value={pin}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={errorId}
            onInput={(e) => setPin(e.currentTarget.value.replace(/\D/g, ""))}
            onBlur={() => setTouched(pin !== "")}
          />
        </label>
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {credential?.hasPin ? S.locks.changePin : S.locks.setPin}
        </button>
        {credential ? (
          <button type="button" class="btn btn-danger-outline" disabled={busy} onClick={clear}>
            {S.locks.clear}
          </button>
        ) : null}
        <p id={errorId} class={invalid ? "field-error" : "hint"}>
          {invalid ? S.locks.pinInvalid : S.locks.pinHint}
        </p>
      </form>
    </Card>
  );
}

export function LocksPage() {
  const locks = useAsync((signal) => listEntities({ domain: "lock", limit: 500, offset: 0 }, signal), []);
  const credentials = useAsync((signal) => listLockCredentials(signal), []);
  const byId = new Map((credentials.data?.credentials ?? []).map((c) => [c.entityId, c]));
  const missing = isMissingEndpoint(credentials.error);

  return (
    <>
      <PageHeader title={S.locks.title} />
      <p class="muted">{S.locks.intro}</p>
      {credentials.error ? (
        <ErrorMessage
          error={missing ? S.common.notAvailable(S.locks.feature) : credentials.error}
          onRetry={() => credentials.reload()}
        />
      ) : null}
      {locks.error ? <ErrorMessage error={locks.error} onRetry={() => locks.reload()} /> : null}
      {locks.loading && !locks.data ? <Loading /> : null}
      {locks.data && locks.data.entities.length === 0 ? <Empty title={S.locks.empty} /> : null}
      {locks.data && !missing ? (
        <div class="grid">
          {locks.data.entities.map((lock) => (
            <LockCard
              key={lock.entity_id}
              lock={lock}
              credential={byId.get(lock.entity_id)}
              onChange={() => credentials.reload(true)}
            />
          ))}
        </div>
      ) : null}
    </>
  );
}
