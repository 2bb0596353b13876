import { useState } from "preact/hooks";
import { attempt, confirmDialog } from "../../../common/components/notify.tsx";
import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { useAsync, useInterval } from "../../../common/use-async.ts";
import { type BridgePlugin, listPlugins, type PluginPackage, type PluginsOverview, uninstallPlugin } from "../api/plugins.ts";
import { isMissingEndpoint } from "../components/ui.tsx";
import { formatTime } from "../lib/format.ts";
import { S } from "../strings.ts";
import { BridgePluginsCard, type PluginAbout } from "./plugin-bridge.tsx";
import { InstallCard } from "./plugin-install.tsx";
import { PluginSettingsDialog } from "./plugin-settings.tsx";

/** While something is in progress the list is reloaded (the hub pushes no plugin changes); settled means no polling. */
const FAST_POLL_MS = 1500;
/** A failed plugin is retried by the hub on its own (30 s by default): check now and then until it settles. */
const SLOW_POLL_MS = 10_000;

function pollInterval(data: PluginsOverview | undefined): number | null {
  if (!data) return null;
  const plugins = data.bridges.flatMap((b) => b.plugins);
  if (data.packages.some((p) => p.status === "reinstalling") || plugins.some((p) => p.state === "starting")) {
    return FAST_POLL_MS;
  }
  return plugins.some((p) => p.state === "failed") ? SLOW_POLL_MS : null;
}

function sourceText(source: PluginPackage["source"]): string {
  if (source.type === "registry") return S.plugins.source.registry(source.spec);
  if (source.type === "upload") return S.plugins.source.upload(source.file);
  return S.plugins.source.local(source.path);
}

function PackageRow({ pkg, apiVersion, onRemoved }: { pkg: PluginPackage; apiVersion: number; onRemoved: () => void }) {
  const [busy, setBusy] = useState(false);
  const uninstall = async () => {
    const ok = await confirmDialog({
      title: S.plugins.uninstallTitle(pkg.name),
      text: S.plugins.uninstallText,
      confirmLabel: S.plugins.uninstall,
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    const done = await attempt(S.plugins.uninstall, () => uninstallPlugin(pkg.name), S.plugins.uninstalled(pkg.name));
    setBusy(false);
    if (done) onRemoved();
  };
  const statusClass = pkg.status === "installed" ? "pill-ok" : pkg.status === "unavailable" ? "pill-bad" : "pill-warn";
  return (
    <li class="package-row" data-testid="package-row" data-package={pkg.name} data-status={pkg.status}>
      <div class="row-main">
        <span class="plugin-name">
          <strong>{pkg.name}</strong>
          <span class="muted">{S.plugins.version(pkg.version)}</span>
        </span>
        {pkg.description ? <span class="muted small">{pkg.description}</span> : null}
        <span class="muted small">
          {sourceText(pkg.source)} · {S.plugins.installedAt(formatTime(pkg.installedAt))}
        </span>
      </div>
      <div class="package-actions">
        <span class={`pill ${statusClass}`}>{S.plugins.packageStatus[pkg.status]}</span>
        <button type="button" class="btn btn-small btn-danger-outline" disabled={busy} onClick={uninstall}>
          {S.plugins.uninstall}
        </button>
      </div>
      {pkg.status === "reinstalling" ? <p class="hint package-note">{S.plugins.reinstallingText}</p> : null}
      {pkg.status === "unavailable" ? (
        <p class="error-text small package-note">{S.plugins.unavailableText(pkg.error ?? "")}</p>
      ) : null}
      {pkg.apiVersionMismatch ? (
        <p class="notice package-note">{S.plugins.apiMismatch(pkg.hubPluginApiVersion, apiVersion)}</p>
      ) : null}
      {pkg.restartRequired && pkg.loadedVersion ? (
        <p class="notice package-note">{S.plugins.restartRequired(pkg.version, pkg.loadedVersion)}</p>
      ) : null}
    </li>
  );
}

function PackagesCard({ data, onChange }: { data: PluginsOverview; onChange: () => void }) {
  return (
    <Card title={S.plugins.packages} data-testid="plugin-packages">
      {data.packages.length === 0 ? (
        <Empty title={S.plugins.noPackages}>
          <p>{S.plugins.noPackagesText}</p>
        </Empty>
      ) : (
        <ul class="list">
          {data.packages.map((pkg) => (
            <PackageRow key={pkg.name} pkg={pkg} apiVersion={data.apiVersion} onRemoved={onChange} />
          ))}
        </ul>
      )}
      {data.builtin.length > 0 ? (
        <div class="builtins">
          <h3>{S.plugins.builtins}</h3>
          <p class="hint">{S.plugins.builtinsText}</p>
          <ul class="list">
            {data.builtin.map((builtin) => (
              <li key={builtin.name} class="list-row" data-testid="builtin-plugin">
                <div class="row-main">
                  <span class="plugin-name">
                    <strong>{builtin.displayName}</strong>
                    <span class="muted">{S.plugins.version(builtin.version)}</span>
                    {builtin.experimental ? <span class="pill pill-warn">{S.plugins.experimental}</span> : null}
                  </span>
                  <span class="muted small">{builtin.description}</span>
                </div>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}

export function PluginsPage() {
  const list = useAsync((signal) => listPlugins(signal), []);
  const [open, setOpen] = useState<{ bridgeId: string; plugin: string } | null>(null);
  const data = list.data;
  useInterval(() => list.reload(true), pollInterval(data));

  /** An action answered with the plugin's new record: shown at once, then the whole list is read again. */
  const patch = (bridgeId: string, plugin: BridgePlugin) => {
    // Actions exist only once the list is shown, so there is a list to patch.
    list.setData((previous) => {
      const current = previous as PluginsOverview;
      return {
        ...current,
        bridges: current.bridges.map((b) =>
          b.bridgeId === bridgeId ? { ...b, plugins: b.plugins.map((p) => (p.name === plugin.name ? plugin : p)) } : b,
        ),
      };
    });
    list.reload(true);
  };
  const about = (name: string): PluginAbout | undefined => {
    const pkg = data?.packages.find((p) => p.name === name);
    return (
      data?.builtin.find((b) => b.name === name) ?? (pkg ? { description: pkg.description, experimental: false } : undefined)
    );
  };
  const openBridge = open ? data?.bridges.find((b) => b.bridgeId === open.bridgeId) : undefined;
  const openPlugin = openBridge?.plugins.find((p) => p.name === open?.plugin);
  const missing = isMissingEndpoint(list.error);

  return (
    <>
      <PageHeader title={S.plugins.title}>
        <button type="button" class="btn" onClick={() => list.reload(true)} disabled={list.loading}>
          {S.plugins.refresh}
        </button>
      </PageHeader>
      <p class="muted">{S.plugins.intro}</p>
      {list.error ? (
        <ErrorMessage error={missing ? S.common.notAvailable(S.plugins.feature) : list.error} onRetry={() => list.reload()} />
      ) : null}
      {list.loading && !data ? <Loading /> : null}
      {data ? (
        <>
          <div class="grid">
            <PackagesCard data={data} onChange={() => list.reload(true)} />
            <InstallCard onInstalled={() => list.reload(true)} />
          </div>
          <h2 class="section-title">{S.plugins.bridgesTitle}</h2>
          {data.bridges.length === 0 ? (
            <Card>
              <Empty title={S.plugins.noBridges}>
                <p>{S.plugins.noBridgesText}</p>
                <Link href="/bridges/new" class="btn btn-primary">
                  {S.dashboard.createFirst}
                </Link>
              </Empty>
            </Card>
          ) : (
            <div class="plugin-bridges">
              {data.bridges.map((bridge) => (
                <BridgePluginsCard
                  key={bridge.bridgeId}
                  bridge={bridge}
                  about={about}
                  onChanged={patch}
                  onSettings={(bridgeId, plugin) => setOpen({ bridgeId, plugin })}
                />
              ))}
            </div>
          )}
        </>
      ) : null}
      {openBridge && openPlugin ? (
        <PluginSettingsDialog
          key={`${openBridge.bridgeId}/${openPlugin.name}`}
          bridge={openBridge}
          plugin={openPlugin}
          onSaved={(plugin) => patch(openBridge.bridgeId, plugin)}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </>
  );
}
