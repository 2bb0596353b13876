import { useId, useState } from "preact/hooks";
import { attempt } from "../../../common/components/notify.tsx";
import { Field } from "../../../common/components/ui.tsx";
import { useAsync } from "../../../common/use-async.ts";
import { deleteMapping, deviceTypeChoices, type MappingInput, putMapping } from "../api/mappings.ts";
import type { BridgeDeviceInfo, DeviceTypeKey, EntityMapping } from "../api/types.ts";
import { S } from "../strings.ts";

const DEVICE_TYPES = Object.keys(S.deviceTypes) as DeviceTypeKey[];

/**
 * The types to offer: those the hub says fit the entity (its own check, the one that refuses the others), plus the
 * type saved before so an edit never drops it silently; none when Home Assistant has no state for it (`null`: the hub
 * can set no type then). Until the hub answers, or when it cannot (an older hub), every type: the hub still refuses
 * a misfit with a clear message.
 */
function offered(allowed: readonly DeviceTypeKey[] | null | undefined, saved: string): DeviceTypeKey[] {
  if (allowed === undefined) return DEVICE_TYPES;
  return DEVICE_TYPES.filter((key) => allowed?.includes(key) || key === saved);
}

/**
 * One entity's mapping, inline under its row: Matter device type, name, disabled, and for a companion entity
 * (composed into another entity's endpoint, or detached before) whether it is exposed on its own.
 * `partOf` is the name of the endpoint the entity is composed into, when it is.
 */
export function MappingEditor({
  bridgeId,
  device,
  mapping,
  partOf,
  onDone,
}: {
  bridgeId: string;
  device: BridgeDeviceInfo;
  mapping: EntityMapping | undefined;
  partOf: string | null;
  onDone: (changed: boolean) => void;
}) {
  const [type, setType] = useState<string>(mapping?.matterDeviceType ?? "");
  const [name, setName] = useState(mapping?.customName ?? "");
  const [disabled, setDisabled] = useState(mapping?.disabled ?? false);
  const [detached, setDetached] = useState(mapping?.detached ?? false);
  const [busy, setBusy] = useState(false);
  const hintId = useId();
  const choices = useAsync((signal) => deviceTypeChoices(bridgeId, device.entityId, signal), [bridgeId, device.entityId]);
  const allowed = choices.data?.allowed;
  const typeHint =
    choices.data === undefined
      ? undefined
      : allowed === null
        ? S.devices.typeNoState
        : allowed?.length === 0
          ? S.devices.typeNoneFits
          : S.devices.typeFits;
  // A companion: it is composed now, or was taken out of its device's endpoint by an earlier "expose on its own".
  const companion = device.composedInto != null || (mapping?.detached ?? false);
  // The type and name of a composed entity mean nothing (it has no endpoint of its own) until it is detached.
  const ownEndpoint = !companion || detached;

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const input: MappingInput = {
      matterDeviceType: (type || null) as DeviceTypeKey | null,
      customName: name.trim() || null,
      disabled,
      ...(companion ? { detached } : {}),
    };
    const ok = await attempt(
      S.common.save,
      () => putMapping(bridgeId, device.entityId, input),
      S.devices.mappingSaved(device.entityId),
    );
    setBusy(false);
    if (ok) onDone(true);
  };
  const reset = async () => {
    setBusy(true);
    const ok = await attempt(
      S.devices.resetMapping,
      async () => {
        await deleteMapping(bridgeId, device.entityId);
        return true;
      },
      S.devices.mappingReset(device.entityId),
    );
    setBusy(false);
    if (ok) onDone(true);
  };
  return (
    <form
      class="mapping-editor"
      onSubmit={save}
      aria-label={S.devices.mappingTitle(device.entityId)}
      data-testid="mapping-editor"
    >
      {companion ? (
        <div class="detach">
          <label class="check">
            <input
              type="checkbox"
              checked={detached}
              aria-describedby={hintId}
              onChange={(e) => setDetached(e.currentTarget.checked)}
            />
            {S.devices.exposeOnOwn}
          </label>
          <p class="hint" id={hintId}>
            {partOf ? S.devices.exposeOnOwnComposed(partOf) : S.devices.exposeOnOwnDetached}
          </p>
        </div>
      ) : null}
      {ownEndpoint ? (
        <>
          <Field label={S.devices.deviceType} hint={typeHint}>
            {(props) => (
              <select
                {...props}
                value={type}
                onChange={(e) => setType(e.currentTarget.value)}
                data-testid="device-type-select"
                data-offered={choices.data ? "fitting" : "all"}
              >
                <option value="">{S.devices.automatic}</option>
                {offered(choices.error ? undefined : allowed, type).map((key) => (
                  <option key={key} value={key}>
                    {S.deviceTypes[key]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={S.devices.customName} hint={S.devices.customNameHint}>
            {(props) => (
              <input
                {...props}
                type="text"
                maxLength={32}
                value={name}
                placeholder={device.name}
                onInput={(e) => setName(e.currentTarget.value)}
              />
            )}
          </Field>
        </>
      ) : null}
      <label class="check">
        <input type="checkbox" checked={disabled} onChange={(e) => setDisabled(e.currentTarget.checked)} />
        {S.devices.disabled}
      </label>
      <div class="button-row">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {S.common.save}
        </button>
        {mapping ? (
          <button type="button" class="btn" disabled={busy} onClick={reset}>
            {S.devices.resetMapping}
          </button>
        ) : null}
        <button type="button" class="btn btn-plain" onClick={() => onDone(false)}>
          {S.common.cancel}
        </button>
      </div>
    </form>
  );
}
