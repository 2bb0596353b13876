import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ErrorMessage, Loading } from "../../../common/components/ui.tsx";
import { useAsync } from "../../../common/use-async.ts";
import {
  type BridgePlugin,
  type BridgePlugins,
  type PluginConfigProperty,
  pluginConfigSchema,
  savePluginConfig,
} from "../api/plugins.ts";
import { S } from "../strings.ts";
import { PluginDetails, PluginDevices } from "./plugin-details.tsx";
import { buildConfig, type Entry, initialValue, isDeviceSwitch, SchemaField, type Value } from "./plugin-schema-form.tsx";

type Outcome = { kind: "ok" | "warn"; text: string } | { kind: "error"; error: Error };

/**
 * A plugin's settings as a modal dialog: its status line and details (the appliance cloud's sign-in result,
 * unsupported devices and poll plan; the security plugin's warnings), then a form rendered from its config schema.
 * Saving keeps the dialog open and reloads the schema, because a schema may grow from the saved settings (the
 * cloud's device switches appear once the account is signed in). Outcomes are shown inside the dialog: toasts sit
 * below a modal dialog.
 */
export function PluginSettingsDialog({
  bridge,
  plugin,
  onSaved,
  onClose,
}: {
  bridge: BridgePlugins;
  plugin: BridgePlugin;
  onSaved: (plugin: BridgePlugin) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const schema = useAsync((signal) => pluginConfigSchema(bridge.bridgeId, plugin.name, signal), [bridge.bridgeId, plugin.name]);
  const [values, setValues] = useState<Record<string, Value>>({});
  const [clear, setClear] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      opener?.focus?.();
    };
  }, []);

  const properties = schema.data?.schema ? Object.entries(schema.data.schema.properties) : [];
  const fields = properties.filter((entry) => !isDeviceSwitch(entry));
  const switches = properties.filter(isDeviceSwitch);
  const currentValue = (key: string, property: PluginConfigProperty) => values[key] ?? initialValue(key, property, plugin.config);

  const save = async (event: Event) => {
    event.preventDefault();
    const current = schema.data?.schema;
    if (!current) return;
    const built = buildConfig(current, values, clear, plugin.config);
    setErrors(built.errors);
    if (Object.keys(built.errors).length > 0) {
      setOutcome({ kind: "error", error: new Error(S.plugins.fixFields) });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const result = await savePluginConfig(bridge.bridgeId, plugin.name, built.config);
      onSaved(result.plugin);
      // Secrets never come back: the fields empty again, and secretsSet now says what is stored.
      setValues((previous) => Object.fromEntries(Object.entries(previous).filter(([key]) => !current.properties[key]?.secret)));
      setClear(new Set());
      setOutcome(
        result.error
          ? { kind: "warn", text: S.plugins.savedFailed(result.error) }
          : { kind: "ok", text: result.applied ? S.plugins.savedApplied : S.plugins.savedLater },
      );
      schema.reload(true);
    } catch (failure) {
      setOutcome({ kind: "error", error: failure instanceof Error ? failure : new Error(String(failure)) });
    } finally {
      setBusy(false);
    }
  };

  const field = ([key, property]: Entry) => (
    <SchemaField
      key={key}
      name={key}
      property={property}
      value={currentValue(key, property)}
      error={errors[key]}
      secretSet={plugin.secretsSet.includes(key)}
      clearing={clear.has(key)}
      disabled={busy}
      onValue={(value) => setValues((previous) => ({ ...previous, [key]: value }))}
      onClear={(on) =>
        setClear((previous) => {
          const next = new Set(previous);
          if (on) next.add(key);
          else next.delete(key);
          return next;
        })
      }
    />
  );

  return (
    <dialog
      ref={ref}
      class="dialog dialog-wide"
      aria-labelledby={titleId}
      data-testid="plugin-settings"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form class="dialog-form" onSubmit={save} noValidate>
        <div class="dialog-head">
          <h2 id={titleId}>{schema.data?.schema?.title ?? plugin.displayName}</h2>
          <p class="muted small">{S.plugins.settingsTitle(plugin.displayName, bridge.bridgeName)}</p>
        </div>
        <div class="dialog-body">
          {plugin.status ? (
            <p class="plugin-status" data-testid="plugin-status">
              <span class="muted">{S.plugins.status}: </span>
              {plugin.status}
            </p>
          ) : null}
          <PluginDetails details={plugin.details} />
          {schema.error ? (
            <ErrorMessage error={schema.error} title={S.plugins.schemaFailed} onRetry={() => schema.reload()} />
          ) : null}
          {schema.loading && !schema.data ? <Loading /> : null}
          {schema.data && !schema.data.schema ? <p class="muted">{S.plugins.noSchema}</p> : null}
          {fields.length > 0 ? <div class="schema-form">{fields.map(field)}</div> : null}
          {switches.length > 0 ? (
            <div class="device-switches">
              <fieldset data-testid="device-switches">
                <legend>{S.plugins.accountDevices}</legend>
                <p class="hint">{S.plugins.accountDevicesHint}</p>
                <div class="switch-grid">{switches.map(field)}</div>
              </fieldset>
            </div>
          ) : null}
          {plugin.devices.length > 0 ? (
            <>
              <h3>{S.plugins.devices(plugin.devices.length)}</h3>
              <PluginDevices devices={plugin.devices} />
            </>
          ) : null}
        </div>
        <div class="dialog-foot">
          <div class="dialog-outcome" data-testid="settings-outcome">
            {outcome?.kind === "error" ? <ErrorMessage error={outcome.error} /> : null}
            {outcome && outcome.kind !== "error" ? (
              <p class={outcome.kind === "ok" ? "outcome-ok" : "notice"} role="status">
                {outcome.text}
              </p>
            ) : null}
          </div>
          <div class="dialog-actions">
            <button type="button" class="btn" onClick={onClose}>
              {S.common.close}
            </button>
            <button type="submit" class="btn btn-primary" disabled={busy || !schema.data?.schema} data-testid="save-settings">
              {busy ? S.plugins.saving : S.plugins.save}
            </button>
          </div>
        </div>
      </form>
    </dialog>
  );
}
