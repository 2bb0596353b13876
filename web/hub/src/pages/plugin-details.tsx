import type { BridgePlugin } from "../api/plugins.ts";
import type { DeviceTypeKey } from "../api/types.ts";
import { JsonView } from "../components/json-view.tsx";
import { S } from "../strings.ts";

/**
 * The plugin's state on a bridge as a badge (same look as a bridge's status). A running plugin that waits for its
 * settings says so: "Running" would promise devices it does not add.
 */
export function PluginStateBadge({ plugin }: { plugin: Pick<BridgePlugin, "state" | "needsSettings"> }) {
  const { state } = plugin;
  const waiting = state === "running" && plugin.needsSettings;
  return (
    <span
      class={`badge badge-${waiting ? "needs-settings" : state}`}
      data-testid="plugin-state"
      data-state={state}
      data-needs-settings={waiting ? "yes" : undefined}
    >
      <span class="dot" aria-hidden="true" />
      {waiting ? S.plugins.needsSettings : S.plugins.state[state]}
    </span>
  );
}

interface Unsupported {
  name: string;
  model: string;
  reason: string;
}

/**
 * What a plugin reports beside its status line (docs/plugins.md): the security plugin's `warnings`, the appliance
 * cloud's unsupported devices and poll plan. Keys the UI does not know are shown as they are.
 */
export function PluginDetails({ details }: { details: BridgePlugin["details"] }) {
  if (!details) return null;
  const { warnings, unsupported, pollInterval, pollRaised, dailyQuota, ...rest } = details as Record<string, unknown>;
  const warningList = Array.isArray(warnings) ? warnings.map(String) : [];
  const unsupportedList = Array.isArray(unsupported) ? (unsupported as Unsupported[]) : [];
  return (
    <div class="plugin-details" data-testid="plugin-details">
      {warningList.length > 0 ? (
        <div class="notice plugin-warnings" data-testid="plugin-warnings">
          <div>
            <strong>{S.plugins.warnings}</strong>
            <ul>
              {warningList.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      {typeof dailyQuota === "number" ? (
        <p class="muted small" data-testid="plugin-polling">
          {S.plugins.quota(dailyQuota, pollRaised === true && typeof pollInterval === "number" ? pollInterval : null)}
        </p>
      ) : null}
      {unsupportedList.length > 0 ? (
        <details class="plugin-unsupported" data-testid="plugin-unsupported">
          <summary>
            {S.plugins.unsupported} ({unsupportedList.length})
          </summary>
          <ul>
            {unsupportedList.map((device) => (
              <li key={`${device.name}-${device.model}`}>
                {S.plugins.unsupportedItem(device.name, device.model, device.reason)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {Object.keys(rest).length > 0 ? <JsonView value={rest} /> : null}
    </div>
  );
}

/** The plugin's devices on the bridge: name, Matter type, endpoint and reachability. */
export function PluginDevices({ devices }: { devices: BridgePlugin["devices"] }) {
  if (devices.length === 0) return null;
  return (
    <ul class="plugin-devices" aria-label={S.plugins.devices(devices.length)}>
      {devices.map((device) => (
        <li key={device.id} data-testid="plugin-device" data-device-id={device.id}>
          <span class="device-name">{device.name}</span>
          <span class="muted small">
            {device.deviceType ? (S.deviceTypes[device.deviceType as DeviceTypeKey] ?? device.deviceType) : device.endpointId}
            {device.endpointNumber !== null ? ` · ${S.plugins.endpoint(device.endpointNumber)}` : ""}
          </span>
          <span class={`pill ${device.reachable ? "pill-ok" : "pill-bad"}`}>
            {device.reachable ? S.devices.reachable : S.devices.unreachable}
          </span>
        </li>
      ))}
    </ul>
  );
}
