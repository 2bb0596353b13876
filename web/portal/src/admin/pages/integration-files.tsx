import { useState } from "preact/hooks";
import { saveText } from "../../../../common/clipboard.ts";
import { CopyButton } from "../../../../common/components/copy-button.tsx";
import { attempt, confirmDialog } from "../../../../common/components/notify.tsx";
import { ErrorMessage, Field, Loading } from "../../../../common/components/ui.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { A } from "../../strings/admin.ts";
import {
  type CatalogEntry,
  deleteSecret,
  type GeneratedFileView,
  type IntegrationDetail,
  listSecrets,
  setSecret,
} from "../api.ts";
import { formatBytes, formatDate } from "../format.ts";

/**
 * The generated files: pick one, read it, copy or download it. Files holding secrets are shown (and downloaded) with
 * `<secret:key>` placeholders; the real file is on the portal's disk at its path, readable by the portal only.
 */
export function GeneratedFiles({ files }: { files: GeneratedFileView[] }) {
  const [name, setName] = useState(files[0]?.name ?? "");
  if (files.length === 0) return <p class="muted">{A.integrations.noFiles}</p>;
  const file = files.find((candidate) => candidate.name === name) ?? (files[0] as GeneratedFileView);
  return (
    <div class="files" data-testid="generated-files">
      <div class="tabs file-tabs" role="tablist" aria-label={A.integrations.files}>
        {files.map((candidate) => (
          <button
            key={candidate.name}
            type="button"
            role="tab"
            id={`file-tab-${candidate.name}`}
            aria-selected={candidate.name === file.name}
            aria-controls="file-panel"
            class={`tab${candidate.name === file.name ? " active" : ""}`}
            onClick={() => setName(candidate.name)}
          >
            {candidate.name}
          </button>
        ))}
      </div>
      <div id="file-panel" role="tabpanel" aria-labelledby={`file-tab-${file.name}`} class="file-panel" data-file={file.name}>
        <p class="small">
          {file.description}
          <span class="muted">
            {" "}
            · {formatBytes(file.size)} · {file.mode} · <code>{file.path}</code>
          </span>
        </p>
        {file.redacted ? <p class="notice small">{A.integrations.redacted}</p> : null}
        <div class="button-row">
          <CopyButton text={file.content ?? ""} label={A.integrations.copyFile(file.name)} />
          <button
            type="button"
            class="btn btn-small"
            onClick={() => saveText(file.name, file.content ?? "")}
            aria-label={A.integrations.downloadFile(file.name)}
          >
            {A.integrations.download}
          </button>
        </div>
        <pre class="code-view">
          <code>{file.content ?? A.integrations.noContent}</code>
        </pre>
      </div>
    </div>
  );
}

/** The secrets (keys only, never values): set or rotate one, delete one the integration can do without. */
export function IntegrationSecrets({
  integration,
  specs,
  onChanged,
}: {
  integration: IntegrationDetail;
  specs: CatalogEntry["secrets"];
  onChanged: () => void;
}) {
  const secrets = useAsync(() => listSecrets(integration.id), [integration.id, integration.updatedAt]);
  const [key, setKey] = useState(specs.find((spec) => !spec.generated)?.key ?? specs[0]?.key ?? "");
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  // The server's rule (any printable name up to 128 characters, docs/portal.md) decides; the form only flags what is
  // visibly too long, and shows the server's 400 for the rest.
  const keyError = key.trim().length > 128 ? A.integrations.keyRule : null;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!key || !value || keyError) return;
    setBusy(true);
    const done = await attempt(A.integrations.setSecret, () => setSecret(integration.id, key, value));
    setBusy(false);
    if (done) {
      setValue("");
      secrets.reload(true);
      onChanged();
    }
  };
  const remove = async (secretId: string, secretKey: string) => {
    const ok = await confirmDialog({
      title: A.integrations.deleteSecretTitle(secretKey),
      text: A.integrations.deleteSecretText,
      confirmLabel: A.common.delete,
      danger: true,
    });
    if (ok && (await attempt(A.common.delete, () => deleteSecret(integration.id, secretId)))) {
      secrets.reload(true);
      onChanged();
    }
  };
  const describe = (secretKey: string) => specs.find((spec) => spec.key === secretKey)?.description;
  return (
    <>
      {integration.missingSecrets.length > 0 ? (
        <p class="notice">
          {A.integrations.missingSecrets}: <code>{integration.missingSecrets.join(", ")}</code>
        </p>
      ) : null}
      {secrets.error ? (
        <ErrorMessage error={secrets.error} title={A.integrations.secretsFailed} onRetry={() => secrets.reload()} />
      ) : null}
      {!secrets.data ? (
        secrets.error ? null : (
          <Loading />
        )
      ) : secrets.data.length === 0 ? (
        <p class="muted">{A.integrations.noSecrets}</p>
      ) : (
        <ul class="list" data-testid="secrets">
          {secrets.data.map((secret) => (
            <li key={secret.id} class="list-row">
              <span class="row-main">
                <code>{secret.key}</code>
                <span class="small muted block">
                  {describe(secret.key) ?? ""} {secret.generated ? `· ${A.integrations.generated}` : ""} ·{" "}
                  {secret.rotatedAt
                    ? A.integrations.rotatedAt(formatDate(secret.rotatedAt))
                    : A.integrations.setAt(formatDate(secret.createdAt))}
                </span>
              </span>
              <button
                type="button"
                class="btn btn-small btn-danger-outline"
                aria-label={A.integrations.deleteSecretTitle(secret.key)}
                onClick={() => remove(secret.id, secret.key)}
              >
                {A.common.delete}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={submit} noValidate>
        <Field label={A.integrations.secretKey} error={keyError}>
          {(props) => (
            <>
              <input
                {...props}
                type="text"
                list="secret-keys"
                spellcheck={false}
                maxLength={100}
                value={key}
                onInput={(e) => setKey(e.currentTarget.value)}
              />
              <datalist id="secret-keys">
                {specs.map((spec) => (
                  <option key={spec.key} value={spec.key}>
                    {spec.description}
                  </option>
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label={A.integrations.secretValue}>
          {(props) => (
            <input {...props} type="password" autocomplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit" class="btn" disabled={busy || !key || !value}>
          {A.integrations.setSecret}
        </button>
      </form>
    </>
  );
}
