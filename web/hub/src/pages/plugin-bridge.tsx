import { useState } from "preact/hooks";
import { attempt, confirmDialog } from "../../../common/components/notify.tsx";
import { Card } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { type BridgePlugin, type BridgePlugins, pluginAction } from "../api/plugins.ts";
import type { DeviceTypeKey } from "../api/types.ts";
import { StatusBadge } from "../components/ui.tsx";
import { S } from "../strings.ts";
import { PluginDetails, PluginDevices, PluginStateBadge } from "./plugin-details.tsx";

/** What the page knows about a plugin beyond the bridge's record (from the built-in list or the package). */
export interface PluginAbout {
  description: string;
  experimental: boolean;
}

interface RowProps {
  bridge: BridgePlugins;
  plugin: BridgePlugin;
  about: PluginAbout | undefined;
  onChanged: (plugin: BridgePlugin) => void;
  onSettings: () => void;
}

function PluginRow({ bridge, plugin, about, onChanged, onSettings }: RowProps) {
  const [busy, setBusy] = useState(false);
  const readOnly = bridge.serverMode;
  const where = bridge.bridgeName;
  const shown = plugin.displayName;
  const run = async (action: "enable" | "disable" | "reset", okText: string) => {
    setBusy(true);
    const result = await attempt(S.plugins[action], () => pluginAction(bridge.bridgeId, plugin.name, action), okText);
    setBusy(false);
    if (result) onChanged(result.plugin);
  };
  const disable = async () => {
    if (plugin.devices.length > 0) {
      const ok = await confirmDialog({
        title: S.plugins.disableTitle(shown),
        text: S.plugins.disableText(plugin.devices.length),
        confirmLabel: S.plugins.disable,
        danger: true,
      });
      if (!ok) return;
    }
    await run("disable", S.plugins.disabled(shown, where));
  };
  // Waiting for settings: the plugin's own status line says what it needs; the general sentence only without one.
  const hint =
    plugin.state === "running" && plugin.needsSettings
      ? plugin.status
        ? ""
        : S.plugins.needsSettingsHint
      : S.plugins.stateHint[plugin.state];
  const canReset = plugin.autoDisabled || plugin.state === "tripped" || plugin.failures > 0;

  return (
    <li class="plugin-row" data-testid="plugin-row" data-plugin={plugin.name} data-state={plugin.state}>
      <div class="plugin-head">
        <div class="row-main">
          <span class="plugin-name">
            <strong>{shown}</strong>
            {plugin.builtin ? <span class="pill">{S.plugins.builtin}</span> : null}
            {about?.experimental ? <span class="pill pill-warn">{S.plugins.experimental}</span> : null}
          </span>
          {about?.description ? <span class="muted small">{about.description}</span> : null}
        </div>
        <PluginStateBadge plugin={plugin} />
      </div>
      {plugin.status ? (
        <p class="plugin-status" data-testid="plugin-status">
          <span class="muted">{S.plugins.status}: </span>
          {plugin.status}
        </p>
      ) : null}
      {hint && !readOnly ? <p class="hint">{hint}</p> : null}
      {plugin.lastError ? (
        <p class="error-text small" data-testid="plugin-error">
          {S.plugins.lastError}: {plugin.lastError}
          {plugin.failures > 0 ? ` · ${S.plugins.failures(plugin.failures)}` : ""}
        </p>
      ) : null}
      <PluginDetails details={plugin.details} />
      <PluginDevices devices={plugin.devices} />
      {readOnly ? null : (
        <div class="button-row">
          {plugin.enabled && !plugin.autoDisabled ? (
            <button
              type="button"
              class="btn btn-small"
              disabled={busy}
              aria-label={S.plugins.disableLabel(shown, where)}
              onClick={disable}
            >
              {S.plugins.disable}
            </button>
          ) : null}
          {!plugin.enabled && !plugin.autoDisabled ? (
            <button
              type="button"
              class="btn btn-small btn-primary"
              disabled={busy}
              aria-label={S.plugins.enableLabel(shown, where)}
              onClick={() => run("enable", S.plugins.enabled(shown, where))}
            >
              {S.plugins.enable}
            </button>
          ) : null}
          {canReset ? (
            <button
              type="button"
              class={`btn btn-small ${plugin.autoDisabled ? "btn-primary" : ""}`}
              disabled={busy}
              aria-label={S.plugins.resetLabel(shown, where)}
              onClick={() => run("reset", S.plugins.wasReset(shown, where))}
            >
              {S.plugins.reset}
            </button>
          ) : null}
          <button
            type="button"
            class="btn btn-small"
            disabled={busy}
            aria-label={S.plugins.settingsLabel(shown, where)}
            onClick={onSettings}
          >
            {S.plugins.settings}
          </button>
        </div>
      )}
    </li>
  );
}

/** One bridge's plugins; a Server Mode bridge lists them read-only with the hub's note. */
export function BridgePluginsCard({
  bridge,
  about,
  onChanged,
  onSettings,
}: {
  bridge: BridgePlugins;
  about: (name: string) => PluginAbout | undefined;
  onChanged: (bridgeId: string, plugin: BridgePlugin) => void;
  onSettings: (bridgeId: string, plugin: string) => void;
}) {
  return (
    <Card
      class="plugin-bridge"
      data-testid="plugin-bridge"
      data-bridge-id={bridge.bridgeId}
      title={
        <Link href={`/bridges/${encodeURIComponent(bridge.bridgeId)}`} aria-label={S.plugins.openBridge(bridge.bridgeName)}>
          {bridge.bridgeName}
        </Link>
      }
      actions={<StatusBadge status={bridge.bridgeStatus} />}
    >
      {bridge.note ? (
        <p class="notice" data-testid="server-mode-note">
          {bridge.note}
        </p>
      ) : null}
      {bridge.plugins.length === 0 ? (
        <p class="muted">{S.plugins.noPluginsOnBridge}</p>
      ) : (
        <ul class="plugin-list">
          {bridge.plugins.map((plugin) => (
            <PluginRow
              key={plugin.name}
              bridge={bridge}
              plugin={plugin}
              about={about(plugin.name)}
              onChanged={(next) => onChanged(bridge.bridgeId, next)}
              onSettings={() => onSettings(bridge.bridgeId, plugin.name)}
            />
          ))}
        </ul>
      )}
      {bridge.domainMappings.length > 0 ? (
        <div class="plugin-mappings">
          <h3>{S.plugins.domainMappings}</h3>
          <ul class="chips">
            {bridge.domainMappings.map((m) => (
              <li key={m.domain} class="chip">
                {S.plugins.domainMapping(
                  m.domain,
                  S.deviceTypes[m.matterDeviceType as DeviceTypeKey] ?? m.matterDeviceType,
                  m.plugin,
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
