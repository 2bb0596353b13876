import { useState } from "preact/hooks";
import { ErrorMessage, Field } from "../../../../common/components/ui.tsx";
import { A } from "../../strings/admin.ts";
import { createToken, type TokenRecord, updateToken } from "../api.ts";
import { fromLocalInput, toLocalInput } from "../format.ts";

/** Synapse's token alphabet minus the look-alikes people mistype when reading a code aloud (0/O, 1/l/I). */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random token of `length` characters from crypto.getRandomValues (rejection sampling: no modulo bias). */
export function generateToken(length: number): string {
  const out: string[] = [];
  const limit = 256 - (256 % ALPHABET.length);
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && out.length < length) out.push(ALPHABET[byte % ALPHABET.length] as string);
    }
  }
  return out.join("");
}

const TOKEN_RULE = /^[A-Za-z0-9._~-]{1,64}$/;

/** Uses allowed: empty (no limit) or a whole number from 1; what is wrong otherwise. */
const usesProblemOf = (uses: string) => (uses !== "" && !/^[1-9]\d*$/.test(uses) ? A.tokens.usesRule : null);

/** The free-text fields of a token, the same when it is created and when it is edited. */
function LabelAndNote({
  label,
  note,
  setLabel,
  setNote,
}: {
  label: string;
  note: string;
  setLabel: (value: string) => void;
  setNote: (value: string) => void;
}) {
  return (
    <>
      <Field label={A.tokens.label}>
        {(props) => (
          <input {...props} type="text" maxLength={255} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        )}
      </Field>
      <Field label={A.tokens.note}>
        {(props) => (
          <input {...props} type="text" maxLength={1000} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        )}
      </Field>
    </>
  );
}

/** Creates a token: typed, generated here, or left empty for the homeserver (on MAS servers: the portal) to generate. */
export function TokenCreateForm({
  serverId,
  mas = false,
  onCreated,
}: {
  serverId: string;
  mas?: boolean;
  onCreated: (token: TokenRecord) => void;
}) {
  const [token, setToken] = useState("");
  const [length, setLength] = useState(16);
  const [uses, setUses] = useState("1");
  const [expiry, setExpiry] = useState("");
  const [label, setLabel] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const tokenProblem = token !== "" && (!TOKEN_RULE.test(token) || token === "new") ? A.tokens.tokenRule : null;
  const usesProblem = usesProblemOf(uses);
  const expiryMs = fromLocalInput(expiry);
  const expiryProblem = expiry !== "" && (expiryMs === null || expiryMs < Date.now()) ? A.tokens.expiryRule : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (tokenProblem || usesProblem || expiryProblem) return;
    setBusy(true);
    setError(null);
    try {
      const created = await createToken(serverId, {
        ...(token ? { token } : { length }),
        uses_allowed: uses === "" ? null : Number(uses),
        expiry_time: expiryMs,
        ...(label.trim() ? { label: label.trim() } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setToken("");
      setLabel("");
      setNote("");
      onCreated(created);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="token-create-form">
      {error ? <ErrorMessage error={error} title={A.tokens.createFailed} focus /> : null}
      <div class="form-grid">
        <Field label={A.tokens.token} hint={mas ? A.tokens.tokenHintMas : A.tokens.tokenHint} error={tokenProblem}>
          {(props) => (
            <div class="input-with-button">
              <input
                {...props}
                type="text"
                spellcheck={false}
                autocomplete="off"
                maxLength={64}
                value={token}
                placeholder={mas ? A.tokens.tokenPlaceholderMas : A.tokens.tokenPlaceholder}
                onInput={(e) => setToken(e.currentTarget.value)}
              />
              <button type="button" class="btn" onClick={() => setToken(generateToken(length))}>
                {A.tokens.generate}
              </button>
            </div>
          )}
        </Field>
        <Field label={A.tokens.length} hint={A.tokens.lengthHint}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={8}
              max={64}
              value={length}
              onInput={(e) => setLength(Math.min(64, Math.max(8, Number(e.currentTarget.value) || 16)))}
            />
          )}
        </Field>
        <Field label={A.tokens.usesAllowed} hint={A.tokens.usesHint} error={usesProblem}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              inputMode="numeric"
              value={uses}
              onInput={(e) => setUses(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={A.tokens.expiry} hint={A.tokens.expiryHint} error={expiryProblem}>
          {(props) => <input {...props} type="datetime-local" value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />}
        </Field>
        <LabelAndNote label={label} note={note} setLabel={setLabel} setNote={setNote} />
      </div>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {A.tokens.createSubmit}
        </button>
      </div>
    </form>
  );
}

/**
 * Edits label, note, uses and expiry of one token (inline, in its table row). On a MAS server a revoked token keeps its
 * limit and is enabled again with Unrevoke, not from here.
 */
export function TokenEditForm({
  serverId,
  token,
  mas = false,
  onSaved,
  onCancel,
}: {
  serverId: string;
  token: TokenRecord;
  mas?: boolean;
  onSaved: (token: TokenRecord) => void;
  onCancel: () => void;
}) {
  const [label, setLabel] = useState(token.label ?? "");
  const [note, setNote] = useState(token.note ?? "");
  // A token disabled on Synapse has the limit 0 written over its own; a revoked MAS token keeps its limit.
  const offOnSynapse = token.disabled && !mas;
  const [uses, setUses] = useState(offOnSynapse || token.uses_allowed === null ? "" : String(token.uses_allowed));
  const [expiry, setExpiry] = useState(toLocalInput(token.expiry_time));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [enable, setEnable] = useState(false);
  const usesProblem = usesProblemOf(uses);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (usesProblem) return;
    const body: Record<string, unknown> = {};
    if (label.trim() !== (token.label ?? "")) body.label = label.trim() || null;
    if (note.trim() !== (token.note ?? "")) body.note = note.trim() || null;
    const usesValue = uses === "" ? null : Number(uses);
    // A disabled token keeps its 0 unless the admin enables it again on purpose: any limit (or unlimited) does.
    if (offOnSynapse ? enable : usesValue !== token.uses_allowed) body.uses_allowed = usesValue;
    const expiryValue = fromLocalInput(expiry);
    if (expiryValue !== token.expiry_time) body.expiry_time = expiryValue;
    if (Object.keys(body).length === 0) return onCancel();
    setBusy(true);
    setError(null);
    try {
      onSaved(await updateToken(serverId, token.token, body));
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };
  return (
    <form class="edit-form" onSubmit={submit} noValidate data-testid="token-edit-form">
      {error ? <ErrorMessage error={error} title={A.tokens.saveFailed} focus /> : null}
      <div class="form-grid">
        <LabelAndNote label={label} note={note} setLabel={setLabel} setNote={setNote} />
        <Field label={A.tokens.usesAllowed} hint={A.tokens.usesHint} error={usesProblem}>
          {(props) => <input {...props} type="number" min={1} value={uses} onInput={(e) => setUses(e.currentTarget.value)} />}
        </Field>
        <Field label={A.tokens.expiry} hint={A.tokens.expiryHint}>
          {(props) => <input {...props} type="datetime-local" value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />}
        </Field>
      </div>
      {offOnSynapse ? (
        <label class="check">
          <input type="checkbox" checked={enable} onChange={(e) => setEnable(e.currentTarget.checked)} />
          {A.tokens.reenable}
        </label>
      ) : null}
      <div class="button-row">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {A.common.save}
        </button>
        <button type="button" class="btn" onClick={onCancel}>
          {A.common.cancel}
        </button>
      </div>
    </form>
  );
}
