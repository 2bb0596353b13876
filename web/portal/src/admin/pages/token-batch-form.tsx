import { useState } from "preact/hooks";
import { notify } from "../../../../common/components/notify.tsx";
import { ErrorMessage, Field } from "../../../../common/components/ui.tsx";
import { navigate } from "../../../../common/hash-router.tsx";
import { A } from "../../strings/admin.ts";
import { createTokenBatch, MAX_BATCH } from "../api.ts";
import { fromLocalInput } from "../format.ts";

/** The sheet of a batch's cards (`#/tokens/sheet?label=…`). */
export const sheetPath = (label: string) => `/tokens/sheet?${new URLSearchParams({ label })}`;

/**
 * Creates `count` one-use tokens under one label, then opens their sheet. `onDone` is told either way (a failure
 * part-way may have left tokens, which the list should show).
 */
export function TokenBatchForm({ serverId, onDone }: { serverId: string; onDone: () => void }) {
  const [count, setCount] = useState("20");
  const [label, setLabel] = useState("");
  const [note, setNote] = useState("");
  const [expiry, setExpiry] = useState("");
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const countValue = /^\d+$/.test(count) ? Number(count) : Number.NaN;
  const countProblem = countValue >= 1 && countValue <= MAX_BATCH ? null : A.batch.countRule(MAX_BATCH);
  const labelProblem = label.trim() === "" ? A.batch.labelRule : null;
  const expiryMs = fromLocalInput(expiry);
  const expiryProblem = expiry !== "" && (expiryMs === null || expiryMs < Date.now()) ? A.tokens.expiryRule : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    if (countProblem || labelProblem || expiryProblem) return;
    setBusy(true);
    setError(null);
    try {
      const batch = await createTokenBatch(serverId, {
        count: countValue,
        label: label.trim(),
        ...(note.trim() ? { note: note.trim() } : {}),
        expiry_time: expiryMs,
      });
      notify.ok(A.batch.created(batch.tokens.length, batch.label));
      onDone();
      navigate(sheetPath(batch.label));
    } catch (failure) {
      setError(failure as Error);
      onDone();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="token-batch-form">
      <p class="muted">{A.batch.intro(MAX_BATCH)}</p>
      {error ? <ErrorMessage error={error} title={A.batch.failed} focus /> : null}
      <div class="form-grid">
        <Field label={A.batch.count} error={touched || count !== "" ? countProblem : null}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={MAX_BATCH}
              inputMode="numeric"
              value={count}
              onInput={(e) => setCount(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={A.batch.label} hint={A.batch.labelHint} error={touched ? labelProblem : null}>
          {(props) => (
            <input {...props} type="text" maxLength={255} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
          )}
        </Field>
        <Field label={A.tokens.expiry} hint={A.tokens.expiryHint} error={expiryProblem}>
          {(props) => <input {...props} type="datetime-local" value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />}
        </Field>
        <Field label={A.tokens.note}>
          {(props) => (
            <input {...props} type="text" maxLength={1000} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          )}
        </Field>
      </div>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {A.batch.submit(Number.isNaN(countValue) ? 0 : countValue)}
        </button>
      </div>
    </form>
  );
}
