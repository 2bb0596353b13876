import { useState } from "preact/hooks";
import { notify } from "../../../common/components/notify.tsx";
import { Card, ErrorMessage, Field, Loading } from "../../../common/components/ui.tsx";
import { type InstallJobView, linkLocalPlugin, startInstall, startUploadInstall } from "../api/plugins.ts";
import { S } from "../strings.ts";
import { InstallOutcome, InstallProgress, useInstallJob } from "./plugin-install-progress.tsx";

type Source = "registry" | "upload" | "local";

const TABS: [Source, string][] = [
  ["registry", S.plugins.tabRegistry],
  ["upload", S.plugins.tabUpload],
  ["local", S.plugins.tabLocal],
];

/**
 * Install by package name, by uploading a `.tgz`, or by linking a local folder. Name and upload installs run as
 * jobs on the hub: the card shows npm's progress and a Cancel button, finds a running install again after a reload,
 * and shows a failure in place as one sentence with npm's output behind "Details". Linking is instant and answers
 * directly.
 */
export function InstallCard({ onInstalled }: { onInstalled: () => void }) {
  const [source, setSource] = useState<Source>("registry");
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [path, setPath] = useState("");
  const [fileKey, setFileKey] = useState(0);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const reset = () => {
    setName("");
    setPath("");
    setFile(null);
    setFileKey((k) => k + 1);
    setSubmitted(false);
  };
  const installed = (result: { package: { name: string; version: string }; restartRequired: boolean }) => {
    const { name: installedName, version } = result.package;
    notify.ok(
      result.restartRequired ? S.plugins.installedRestart(installedName, version) : S.plugins.installed(installedName, version),
    );
    onInstalled();
  };
  const install = useInstallJob((job: InstallJobView) => {
    if (job.state !== "succeeded" || !job.result) return;
    reset();
    installed(job.result);
    if (job.result.warnings.length === 0) install.dismiss();
  });
  const running = install.job !== null && (install.job.state === "queued" || install.job.state === "running");
  const busy = sending || running;

  const invalid = {
    registry: name.trim() === "" ? S.plugins.packageNameRequired : null,
    upload: file === null ? S.plugins.archiveRequired : null,
    local: path.trim().startsWith("/") ? null : S.plugins.folderInvalid,
  }[source];

  const submit = async (event: Event) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    setSending(true);
    setError(null);
    install.dismiss();
    try {
      if (source === "local") {
        installed(await linkLocalPlugin(path.trim()));
        reset();
      } else {
        install.started(source === "registry" ? await startInstall(name.trim()) : await startUploadInstall(file as File));
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure : new Error(String(failure)));
    } finally {
      setSending(false);
    }
  };

  const choose = (next: Source) => {
    setSource(next);
    setSubmitted(false);
    setError(null);
    if (!running) install.dismiss();
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
          {install.cancelError ? <ErrorMessage error={install.cancelError} /> : null}
          {sending ? <Loading label={S.plugins.installing} /> : null}
          {install.job && running ? (
            <InstallProgress job={install.job} cancelling={install.cancelling} onCancel={install.cancel} />
          ) : null}
          {install.job && !running ? <InstallOutcome job={install.job} onDismiss={install.dismiss} /> : null}
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
