import { useEffect, useState } from "preact/hooks";
import { CopyButton } from "../../../common/components/copy-button.tsx";
import { Card, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { useStore } from "../../../common/store.ts";
import { useAsync } from "../../../common/use-async.ts";
import { getBridge } from "../api/bridges.ts";
import { live } from "../api/live.ts";
import { exportUrl } from "../api/transfer.ts";
import type { Bridge, CommissioningWindow } from "../api/types.ts";
import { DownloadButton } from "../components/download-button.tsx";
import { MoreMenu } from "../components/more-menu.tsx";
import { QrCode } from "../components/qr-code.tsx";
import { StatusBadge } from "../components/ui.tsx";
import { formatClock, formatManualCode } from "../lib/format.ts";
import { hexId, vendorName } from "../lib/vendors.ts";
import { S } from "../strings.ts";
import { clone, confirmDelete, runBridgeAction } from "./bridge-actions.ts";
import { BridgeDevices } from "./bridge-devices.tsx";
import { ControllerWarnings, useControllerTable } from "./controller-limits.tsx";
import { SplitDialog } from "./split-dialog.tsx";

function Codes({ qr, manual, qrLabel }: { qr: string; manual: string; qrLabel: string }) {
  return (
    <div class="codes">
      <QrCode value={qr} label={qrLabel} />
      <div class="code-text">
        <p class="code-label">{S.detail.manualCode}</p>
        <p class="manual-code" data-testid="manual-code">
          {formatManualCode(manual)}
        </p>
        <div class="button-row">
          <CopyButton text={manual} label={S.detail.copyManual} />
        </div>
        <p class="code-label">{S.detail.qrCode}</p>
        <p>
          <code class="qr-text">{qr}</code>
        </p>
        <div class="button-row">
          <CopyButton text={qr} label={S.detail.copyQr} />
        </div>
      </div>
    </div>
  );
}

function Pairing({ bridge }: { bridge: Bridge }) {
  const [window, setWindow] = useState<CommissioningWindow | null>(null);
  const [busy, setBusy] = useState(false);
  const c = bridge.commissioning;
  const running = bridge.status === "running";
  useEffect(() => {
    if (!window?.expiresAt) return;
    const left = new Date(window.expiresAt).getTime() - Date.now();
    const timer = setTimeout(() => setWindow(null), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [window]);
  const open = async () => {
    setBusy(true);
    const result = await runBridgeAction(bridge, "open-commissioning-window");
    setBusy(false);
    const w = result?.commissioningWindow;
    if (w) {
      setWindow({
        ...w,
        expiresAt: w.expiresAt ?? new Date(Date.now() + (w.timeoutSeconds ?? 900) * 1000).toISOString(),
      });
    }
  };
  return (
    <>
      <Card title={S.detail.pairing} class="pairing" data-testid="pairing">
        <p class={`conn ${c.commissioned ? "conn-on" : "conn-off"}`}>
          <span class="dot" aria-hidden="true" />
          {c.commissioned ? S.detail.commissioned : S.detail.notCommissioned}
        </p>
        {!c.commissioned ? <p class="muted">{S.detail.pairingText}</p> : null}
        {!running ? <p class="notice">{S.detail.mustRun}</p> : null}
        <Codes qr={c.qrPairingCode} manual={c.manualPairingCode} qrLabel={S.detail.qrLabel(bridge.name)} />
      </Card>
      <Card title={S.detail.fabrics} data-testid="fabrics">
        {c.fabrics.length === 0 ? (
          <p class="muted">{S.detail.noFabrics}</p>
        ) : (
          <ul class="list">
            {c.fabrics.map((f) => (
              <li key={f.fabricIndex} class="list-row">
                <div class="row-main">
                  <strong>{vendorName(f.vendorId) ?? S.detail.unknownVendor}</strong>
                  <span class="muted">
                    {f.label ? `${f.label} · ` : ""}
                    {S.detail.fabric(f.fabricIndex)} · {S.detail.vendorId(hexId(f.vendorId))}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
        {c.commissioned ? (
          <>
            <p class="muted">{S.detail.openWindowText}</p>
            <button type="button" class="btn btn-primary" disabled={busy || !running} onClick={open} data-testid="open-window">
              {S.detail.openWindow}
            </button>
          </>
        ) : null}
        {window ? (
          <div class="window" role="status" data-testid="commissioning-window">
            <h3>{S.detail.windowOpen}</h3>
            <p>{S.detail.windowCodes}</p>
            <Codes qr={window.qrPairingCode} manual={window.manualPairingCode} qrLabel={S.detail.windowQrLabel} />
            {window.expiresAt ? <p class="muted">{S.detail.windowExpires(formatClock(window.expiresAt))}</p> : null}
          </div>
        ) : null}
      </Card>
    </>
  );
}

/** What the controllers this bridge is meant for say about it, with the split that makes it fit. */
function Warnings({ bridge, onSplit }: { bridge: Bridge; onSplit: () => void }) {
  const warnings = bridge.controllerWarnings ?? [];
  if (warnings.length === 0) return null;
  const overLimit = warnings.some((w) => w.kind === "device_limit");
  return (
    <Card title={S.limits.warningsTitle} class="limits-card" data-testid="bridge-warnings">
      <p class="muted small">{S.limits.warningsText}</p>
      <ControllerWarnings warnings={warnings} />
      {overLimit && !bridge.serverMode ? (
        <button type="button" class="btn btn-primary" onClick={onSplit} data-testid="open-split">
          {S.limits.split}
        </button>
      ) : null}
    </Card>
  );
}

function Actions({ bridge, onSplit }: { bridge: Bridge; onSplit: () => void }) {
  const [busy, setBusy] = useState(false);
  const run = async (action: Parameters<typeof runBridgeAction>[1]) => {
    setBusy(true);
    await runBridgeAction(bridge, action);
    setBusy(false);
  };
  const running = bridge.status === "running" || bridge.status === "starting";
  return (
    <div class="toolbar">
      {running ? (
        <button type="button" class="btn" disabled={busy} onClick={() => run("stop")}>
          {S.bridges.stop}
        </button>
      ) : (
        <button type="button" class="btn btn-primary" disabled={busy} onClick={() => run("start")}>
          {S.bridges.start}
        </button>
      )}
      <button type="button" class="btn" disabled={busy || !running} onClick={() => run("restart")}>
        {S.bridges.restart}
      </button>
      <button type="button" class="btn" disabled={busy || !running} onClick={() => run("refresh")}>
        {S.bridges.refresh}
      </button>
      <button type="button" class="btn" disabled={busy || bridge.status !== "running"} onClick={() => run("force-sync")}>
        {S.bridges.forceSync}
      </button>
      <Link class="btn" href={`/bridges/${bridge.id}/edit`}>
        {S.common.edit}
      </Link>
      <MoreMenu label={S.bridges.more}>
        <button type="button" class="btn" disabled={busy} onClick={() => void clone(bridge)}>
          {S.bridges.clone}
        </button>
        {bridge.serverMode ? null : (
          <button type="button" class="btn" disabled={busy} onClick={onSplit}>
            {S.limits.split}
          </button>
        )}
        <DownloadButton path={exportUrl(bridge.id)} fileName={`bridge-${bridge.id}.json`} what={S.bridges.exportOne}>
          {S.bridges.exportOne}
        </DownloadButton>
        <button type="button" class="btn btn-danger-outline" disabled={busy} onClick={() => run("factory-reset")}>
          {S.bridges.factoryReset}
        </button>
        <button type="button" class="btn btn-danger-outline" disabled={busy} onClick={() => void confirmDelete(bridge)}>
          {S.common.delete}
        </button>
      </MoreMenu>
    </div>
  );
}

export function BridgeDetailPage({ bridgeId }: { bridgeId: string }) {
  const { bridges } = useStore(live);
  const fetched = useAsync((signal) => getBridge(bridgeId, signal), [bridgeId]);
  const fromStore = bridges?.find((b) => b.id === bridgeId);
  const bridge = fromStore ?? fetched.data;
  const table = useControllerTable();
  const [splitting, setSplitting] = useState(false);

  if (!bridge) {
    return (
      <>
        <p>
          <Link href="/bridges">← {S.detail.back}</Link>
        </p>
        {fetched.error ? (
          <ErrorMessage error={(fetched.error as { status?: number }).status === 404 ? S.detail.notFound : fetched.error} />
        ) : fetched.loading ? (
          <Loading />
        ) : (
          <ErrorMessage error={S.detail.notFound} />
        )}
      </>
    );
  }
  return (
    <>
      <p class="crumb">
        <Link href="/bridges">← {S.detail.back}</Link>
      </p>
      <PageHeader title={bridge.name}>
        <StatusBadge status={bridge.status} />
      </PageHeader>
      {bridge.status === "failed" && bridge.statusReason ? (
        <ErrorMessage error={bridge.statusReason} title={S.detail.statusReason} />
      ) : null}
      <Actions bridge={bridge} onSplit={() => setSplitting(true)} />
      <Warnings bridge={bridge} onSplit={() => setSplitting(true)} />
      {splitting ? <SplitDialog bridge={bridge} onClose={() => setSplitting(false)} /> : null}
      <div class="grid">
        <Pairing bridge={bridge} />
      </div>
      <dl class="facts">
        <div>
          <dt>{S.detail.portLabel}</dt>
          <dd>{bridge.port}</dd>
        </div>
        <div>
          <dt>{S.detail.priorityLabel}</dt>
          <dd>{bridge.priority}</dd>
        </div>
        <div>
          <dt>{S.detail.filterLabel}</dt>
          <dd>{S.detail.filterSummary(bridge.filter.include?.length ?? 0, bridge.filter.exclude?.length ?? 0)}</dd>
        </div>
        <div>
          <dt>{S.limits.controllersFact}</dt>
          <dd data-testid="bridge-controllers">
            {(bridge.controllers ?? []).length === 0
              ? S.limits.noControllers
              : (bridge.controllers ?? []).map((id) => table.data?.find((c) => c.id === id)?.name ?? id).join(", ")}
          </dd>
        </div>
        <div>
          <dt>{S.detail.id}</dt>
          <dd>
            <code>{bridge.id}</code>
          </dd>
        </div>
      </dl>
      <BridgeDevices bridge={bridge} />
    </>
  );
}
