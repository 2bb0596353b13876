import { useState } from "preact/hooks";
import { notify } from "../../../common/components/notify.tsx";
import { Card, ErrorMessage, Field, Loading } from "../../../common/components/ui.tsx";
import { type InstallResult, installPlugin, linkLocalPlugin, uploadPlugin } from "../api/plugins.ts";
import { S } from "../strings.ts";

type Source = "registry" | "upload" | "local";

const TABS: [Source, string][] = [
  ["registry", S.plugins.tabRegistry],
  ["upload", S.plugins.tabUpload],
  ["local", S.plugins.tabLocal],
];

/**
 * Install by package name, by uploading a `.tgz`, or by linking a local folder. The hub runs one package operation
 * at a time and npm may take a while, so the card stays busy until the hub answers; a refusal (bad archive, a
 * matter.js dependency, npm's own error) is shown in place, where it can be read.
 */
export function InstallCard({ onInstalled }: { onInstalled: () => void }) {
  const [source, setSource] = useState<Source>("registry");
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [path, setPath] = useState("");
  const [fileKey, setFileKey] = useState(0);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const invalid = {
    registry: name.trim() === "" ? S.plugins.packageNameRequired : null,
    upload: file === null ? S.plugins.archiveRequired : null,
    local: path.trim().startsWith("/") ? null : S.plugins.folderInvalid,
  }[source];

  const run = (): Promise<InstallResult> => {
    if (source === "registry") return installPlugin(name.trim());
    if (source === "upload") return uploadPlugin(file as File);
    return linkLocalPlugin(path.trim());
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    setBusy(true);
    setError(null);
    try {
      const result = await run();
      const { name: installed, version } = result.package;
      notify.ok(
        result.restartRequired ? S.plugins.installedRestart(installed, version) : S.plugins.installed(installed, version),
      );
      setName("");
      setPath("");
      setFile(null);
      setFileKey((k) => k + 1);
      setSubmitted(false);
      onInstalled();
    } catch (failure) {
      setError(failure instanceof Error ? failure : new Error(String(failure)));
    } finally {
      setBusy(false);
    }
  };

  const choose = (next: Source) => {
    setSource(next);
    setSubmitted(false);
    setError(null);
  };
  const shownError = submitted ? invalid : null;

  return (
    <Card title={S.plugins.install} data-testid="plugin-install">
      <div class="tabs" role="tablist" aria-label={S.plugins.installTabs}>
        {TABS.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`install-tab-${key}`}
            aria-selected={source === key}
            aria-controls="install-panel"
            class={`tab ${source === key ? "active" : ""}`}
            onClick={() => choose(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div id="install-panel" role="tabpanel" aria-labelledby={`install-tab-${source}`}>
        <form onSubmit={submit} noValidate>
          {source === "registry" ? (
            <Field label={S.plugins.packageName} hint={S.plugins.packageNameHint} error={shownError}>
              {(props) => (
                <input
                  {...props}
                  type="text"
                  value={name}
                  disabled={busy}
                  autocomplete="off"
                  autocapitalize="off"
                  spellcheck={false}
                  placeholder="matter-hub-plugin-…"
                  onInput={(e) => setName(e.currentTarget.value)}
                />
              )}
            </Field>
          ) : null}
          {source === "upload" ? (
            <Field label={S.plugins.archive} hint={S.plugins.archiveHint} error={shownError}>
              {(props) => (
                <input
                  {...props}
                  key={fileKey}
                  type="file"
                  accept=".tgz,.tar.gz,application/gzip,application/x-gzip,application/x-tar"
                  disabled={busy}
                  onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
                />
              )}
            </Field>
          ) : null}
          {source === "local" ? (
            <Field label={S.plugins.folder} hint={S.plugins.folderHint} error={shownError}>
              {(props) => (
                <input
                  {...props}
                  type="text"
                  value={path}
                  disabled={busy}
                  autocomplete="off"
                  autocapitalize="off"
                  spellcheck={false}
                  placeholder="/share/my-plugin"
                  onInput={(e) => setPath(e.currentTarget.value)}
                />
              )}
            </Field>
          ) : null}
          {error ? <ErrorMessage error={error} title={S.plugins.installFailed} /> : null}
          {busy ? <Loading label={S.plugins.installing} /> : null}
          <div class="button-row">
            <button type="submit" class="btn btn-primary" disabled={busy} data-testid="install-submit">
              {source === "registry"
                ? S.plugins.installButton
                : source === "upload"
                  ? S.plugins.uploadButton
                  : S.plugins.linkButton}
            </button>
          </div>
        </form>
      </div>
    </Card>
  );
}
