import { useState } from "preact/hooks";
import { attempt, confirmDialog, notify } from "../../../common/components/notify.tsx";
import { Card, ErrorMessage, PageHeader } from "../../../common/components/ui.tsx";
import { reloadBridges } from "../api/live.ts";
import {
  backupUrl,
  exportUrl,
  type ImportOptions,
  importBridges,
  previewImport,
  previewRestore,
  restartHub,
  restoreBackup,
} from "../api/transfer.ts";
import type { ImportPreview, RestorePreview } from "../api/types.ts";
import { DownloadButton } from "../components/download-button.tsx";
import { isMissingEndpoint } from "../components/ui.tsx";
import { formatTime } from "../lib/format.ts";
import { S } from "../strings.ts";

async function waitForHub(): Promise<void> {
  // The hub goes away and comes back: wait until it answers again, then load the UI afresh.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  for (let i = 0; i < 90; i++) {
    try {
      const response = await fetch("api/health/live", { cache: "no-store" });
      if (response.ok) break;
    } catch {
      // Still restarting.
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  location.reload();
}

function RestorePreviewView({ preview }: { preview: RestorePreview }) {
  const { manifest, files } = preview;
  return (
    <>
      <dl class="facts">
        <div>
          <dt>{S.backup.createdAt}</dt>
          <dd>{formatTime(manifest.createdAt)}</dd>
        </div>
        <div>
          <dt>{S.backup.appVersion}</dt>
          <dd>{manifest.appVersion}</dd>
        </div>
        <div>
          <dt>{S.backup.identities}</dt>
          <dd>{manifest.includesIdentity ? S.common.yes : S.common.no}</dd>
        </div>
        <div>
          <dt>{S.dashboard.bridges}</dt>
          <dd data-testid="restore-bridge-changes">
            {S.backup.bridgeChanges(preview.bridgeChanges.added, preview.bridgeChanges.replaced, preview.bridgeChanges.removed)}
          </dd>
        </div>
        <div>
          <dt>{S.backup.files}</dt>
          <dd data-testid="restore-file-changes">
            {S.backup.fileChanges(files.added.length, files.replaced.length, files.removed.length)}
          </dd>
        </div>
      </dl>
      <ul class="list">
        {preview.bridges.map((b) => (
          <li key={b.id} class="list-row">
            <div class="row-main">
              <strong>{b.name}</strong>
              <span class="muted small">{S.bridges.port(b.port)}</span>
            </div>
            <span class={`pill ${b.change === "replaced" ? "pill-warn" : "pill-ok"}`}>{S.backup.change[b.change]}</span>
          </li>
        ))}
        {preview.removedBridges.map((b) => (
          <li key={b.id} class="list-row">
            <div class="row-main">
              <strong>{b.name}</strong>
            </div>
            <span class="pill pill-bad">{S.backup.removed}</span>
          </li>
        ))}
      </ul>
      {preview.removedBridges.length > 0 ? <p class="notice">{S.backup.removedText(preview.removedBridges.length)}</p> : null}
    </>
  );
}

function Restore() {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<RestorePreview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [identity, setIdentity] = useState(true);
  const [busy, setBusy] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const [pending, setPending] = useState(false);

  const load = async (chosen: File | null, includeIdentity: boolean) => {
    setFile(chosen);
    setPreview(null);
    setError(null);
    if (!chosen) return;
    setBusy(true);
    try {
      // The hub refuses includeIdentity for a backup made without identities: ask without it first, and again with
      // it only when the archive has identities and the operator wants them.
      let next = await previewRestore(chosen, { includeIdentity: false });
      if (includeIdentity && next.manifest.includesIdentity) next = await previewRestore(chosen, { includeIdentity: true });
      setPreview(next);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const restore = async () => {
    if (!file || !preview) return;
    const ok = await confirmDialog({
      title: S.backup.restoreConfirmTitle,
      text: S.backup.restoreConfirmText,
      confirmLabel: S.backup.restoreNow,
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    const result = await attempt(S.backup.restoreNow, () => restoreBackup(file, { includeIdentity: preview.includeIdentity }));
    setBusy(false);
    if (!result) return;
    setPreview(null);
    setPending(true);
    const restart = await confirmDialog({
      title: S.backup.restored,
      text: S.backup.restartPrompt,
      confirmLabel: S.backup.restart,
    });
    if (restart) await restartNow();
  };

  const restartNow = async () => {
    const started = await attempt(S.backup.restart, async () => {
      await restartHub();
      return true;
    });
    if (started) {
      setRestarting(true);
      await waitForHub();
    }
  };

  return (
    <Card title={S.backup.restore}>
      <p class="muted">{S.backup.restoreText}</p>
      <label class="inline-field">
        <span>{S.backup.file}</span>
        <input
          type="file"
          accept=".zip,application/zip"
          disabled={busy}
          onChange={(e) => load(e.currentTarget.files?.[0] ?? null, identity)}
        />
      </label>
      {error ? (
        <ErrorMessage error={isMissingEndpoint(error) ? S.common.notAvailable(S.backup.feature) : (error as Error)} />
      ) : null}
      {preview ? (
        <div class="preview-box" data-testid="restore-preview">
          <h3>{S.backup.previewTitle}</h3>
          <RestorePreviewView preview={preview} />
          {preview.manifest.includesIdentity ? (
            <label class="check">
              <input
                type="checkbox"
                checked={identity}
                disabled={busy}
                onChange={(e) => {
                  setIdentity(e.currentTarget.checked);
                  void load(file, e.currentTarget.checked);
                }}
              />
              {S.backup.restoreIdentity}
            </label>
          ) : null}
          <button type="button" class="btn btn-danger" disabled={busy} onClick={restore}>
            {S.backup.restoreNow}
          </button>
        </div>
      ) : null}
      {pending && !restarting ? (
        <div class="notice" role="status">
          <span>{S.backup.restartPending}</span>
          <button type="button" class="btn btn-primary" onClick={restartNow}>
            {S.backup.restart}
          </button>
        </div>
      ) : null}
      {restarting ? (
        <p class="notice" role="status">
          {S.backup.restarting}
        </p>
      ) : null}
    </Card>
  );
}

function Import() {
  const [data, setData] = useState<unknown>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  const [busy, setBusy] = useState(false);

  const options = (ids: Set<string> | null, overwriteExisting: boolean): ImportOptions =>
    ids ? { bridgeIds: [...ids], overwriteExisting } : { overwriteExisting };

  const refresh = async (content: unknown, ids: Set<string> | null, overwriteExisting: boolean) => {
    setBusy(true);
    try {
      setPreview(await previewImport(content, options(ids, overwriteExisting)));
      setError(null);
    } catch (failure) {
      setError(failure);
      setPreview(null);
    } finally {
      setBusy(false);
    }
  };

  const choose = async (file: File | null) => {
    setPreview(null);
    setError(null);
    setData(null);
    setSelected(null);
    if (!file) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      setError(new Error(S.backup.invalidJson));
      return;
    }
    setData(parsed);
    await refresh(parsed, null, overwrite);
  };

  const toggle = (id: string, on: boolean) => {
    const all = new Set(preview?.bridges.map((b) => b.id) ?? []);
    const next = new Set(selected ?? all);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
    void refresh(data, next, overwrite);
  };

  const run = async () => {
    const count = preview?.bridges.filter((b) => b.action !== "skip").length ?? 0;
    if (count === 0) {
      notify.error(S.backup.nothingSelected);
      return;
    }
    setBusy(true);
    const result = await attempt(
      S.backup.importTitle,
      () => importBridges(data, options(selected, overwrite)),
      S.backup.imported,
    );
    setBusy(false);
    if (result) {
      void reloadBridges();
      setPreview(null);
      setData(null);
    }
  };

  const applied = preview?.bridges.filter((b) => b.action !== "skip").length ?? 0;
  return (
    <Card title={S.backup.importTitle}>
      <p class="muted">{S.backup.importText}</p>
      <label class="inline-field">
        <span>{S.backup.importFile}</span>
        <input
          type="file"
          accept=".json,application/json"
          disabled={busy}
          onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)}
        />
      </label>
      {error ? (
        <ErrorMessage error={isMissingEndpoint(error) ? S.common.notAvailable(S.backup.importFeature) : (error as Error)} />
      ) : null}
      {preview ? (
        <div class="preview-box" data-testid="import-preview">
          <h3>{S.backup.previewTitle}</h3>
          {preview.exportedAt ? <p class="muted small">{S.backup.exportedAt(formatTime(preview.exportedAt))}</p> : null}
          <ul class="list">
            {preview.bridges.map((b) => {
              const checked = selected ? selected.has(b.id) : true;
              return (
                <li key={b.id} class="list-row">
                  <label class="check row-main">
                    <input
                      type="checkbox"
                      checked={checked}
                      disabled={busy}
                      onChange={(e) => toggle(b.id, e.currentTarget.checked)}
                    />
                    <span>
                      <strong>{b.name ?? b.id}</strong>
                      <span class="muted small">
                        {" "}
                        {b.port !== null ? S.bridges.port(b.port) : ""} · {S.backup.mappings(b.mappings)}
                      </span>
                      {b.reasons.length > 0 ? <span class="hint block">{b.reasons.join("; ")}</span> : null}
                    </span>
                  </label>
                  <span class={`pill ${b.action === "create" ? "pill-ok" : b.action === "overwrite" ? "pill-warn" : ""}`}>
                    {S.backup.action[b.action]}
                  </span>
                </li>
              );
            })}
          </ul>
          <label class="check">
            <input
              type="checkbox"
              checked={overwrite}
              disabled={busy}
              onChange={(e) => {
                setOverwrite(e.currentTarget.checked);
                void refresh(data, selected, e.currentTarget.checked);
              }}
            />
            {S.backup.overwrite}
          </label>
          {!preview.valid ? <ErrorMessage error={S.backup.importInvalid} /> : null}
          <button type="button" class="btn btn-primary" disabled={busy || !preview.valid || applied === 0} onClick={run}>
            {S.backup.importNow(applied)}
          </button>
        </div>
      ) : null}
    </Card>
  );
}

export function BackupPage() {
  return (
    <>
      <PageHeader title={S.backup.title} />
      <div class="grid">
        <Card title={S.backup.backup}>
          <p class="muted">{S.backup.backupText}</p>
          <div class="button-row">
            <DownloadButton
              path={backupUrl(false)}
              fileName="matter-hub-backup.zip"
              what={S.backup.download}
              primary
              testId="download-backup"
            >
              {S.backup.download}
            </DownloadButton>
            <DownloadButton
              path={backupUrl(true)}
              fileName="matter-hub-backup-with-identity.zip"
              what={S.backup.downloadWithIdentity}
              testId="download-backup-identity"
            >
              {S.backup.downloadWithIdentity}
            </DownloadButton>
          </div>
          <p class="hint">{S.backup.identityText}</p>
        </Card>
        <Restore />
        <Card title={S.backup.exportTitle}>
          <p class="muted">{S.backup.exportText}</p>
          <DownloadButton path={exportUrl()} fileName="bridges.json" what={S.backup.exportAll} testId="export-all">
            {S.backup.exportAll}
          </DownloadButton>
        </Card>
        <Import />
      </div>
    </>
  );
}
