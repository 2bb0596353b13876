import { ErrorMessage } from "../../../common/components/ui.tsx";
import { useAsync } from "../../../common/use-async.ts";
import { controllerTable } from "../api/bridges.ts";
import type { ControllerInfo, ControllerWarning, DeviceTypeKey } from "../api/types.ts";
import { humanize } from "../lib/format.ts";
import { S } from "../strings.ts";

// Controller limits in the UI (docs/decisions.md "Controller limits"): the controller picker of the bridge form with
// the known gaps of the chosen controllers, and the warnings the hub gives for a bridge or a filter preview.

type Source = ControllerInfo["maxDevices"]["sources"][number];
type Gap = ControllerInfo["deviceTypes"][number];

let table: Promise<ControllerInfo[]> | undefined;
/** The hub's table of limits: read once per page load (it changes only with the hub). */
export function useControllerTable() {
  return useAsync(() => {
    table ??= controllerTable().catch((error: unknown) => {
      table = undefined;
      throw error;
    });
    return table;
  }, []);
}

/** A device type's name; the table may name types this hub does not expose yet (water_freeze_detector…). */
export const typeName = (key: string) => S.deviceTypes[key as DeviceTypeKey] ?? humanize(key);

function Sources({ sources }: { sources: Source[] }) {
  return (
    <details class="sources">
      <summary>{S.limits.sources}</summary>
      <ul>
        {sources.map((source) => (
          <li key={source.title}>
            {source.url ? (
              <a href={source.url} target="_blank" rel="noreferrer noopener">
                {S.limits.source(source.title, source.checkedOn)}
              </a>
            ) : (
              S.limits.source(`${source.title}, ${source.document ?? ""}`, source.checkedOn)
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Unconditional gaps can be left out; those that depend on the bridge (a shared vacuum, a metered light) cannot. */
const conditional = (gap: Gap) => gap.whenShared || gap.carrying.length > 0;

/** The gaps of the chosen controllers: device types each does not show or breaks on, why, and where that comes from. */
function FlaggedTypes({ chosen, leaveOut }: { chosen: ControllerInfo[]; leaveOut: boolean }) {
  const gaps = chosen.flatMap((controller) => controller.deviceTypes.map((gap) => ({ controller, gap })));
  if (gaps.length === 0) return <p class="muted small">{S.limits.flaggedNone}</p>;
  // Folded: with several controllers the list is long, and the preview already warns of what this bridge holds.
  return (
    <details class="flagged" data-testid="flagged-types">
      <summary>{S.limits.flagged(gaps.length)}</summary>
      <ul class="flagged-list">
        {gaps.map(({ controller, gap }) => (
          <li key={`${controller.id}-${gap.keys.join()}`} data-testid="flagged-type">
            <div class="flagged-head">
              <strong>{gap.keys.map(typeName).join(", ")}</strong>
              <span class="muted small">{controller.name}</span>
              <span class={`pill ${gap.effect === "breaks_bridge" ? "pill-bad" : ""}`}>
                {gap.effect === "breaks_bridge" ? S.limits.breaks : S.limits.notShown}
              </span>
              {conditional(gap) ? (
                <span class="pill">{S.limits.warningOnly}</span>
              ) : leaveOut ? (
                <span class="pill pill-on">{S.limits.leftOut}</span>
              ) : null}
            </div>
            <p class="small">{gap.reason}</p>
            <Sources sources={gap.sources} />
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The bridge form's controller choice, its leave-out switch and the known gaps of what is chosen. */
export function ControllerPicker({
  value,
  leaveOut,
  onChange,
}: {
  value: string[];
  leaveOut: boolean;
  onChange: (next: { controllers: string[]; leaveOutUnsupported: boolean }) => void;
}) {
  const controllers = useControllerTable();
  if (controllers.error) return <ErrorMessage error={controllers.error} onRetry={() => controllers.reload()} />;
  const all = controllers.data ?? [];
  const chosen = all.filter((controller) => value.includes(controller.id));
  const toggle = (id: string, on: boolean) =>
    onChange({
      controllers: all.map((c) => c.id).filter((c) => (c === id ? on : value.includes(c))),
      leaveOutUnsupported: leaveOut,
    });
  return (
    <div class="controller-picker">
      <fieldset class="chips" data-testid="controller-picker" aria-describedby="controllers-hint">
        <legend>{S.limits.controllers}</legend>
        {all.map((controller) => (
          <label
            key={controller.id}
            class={`chip ${value.includes(controller.id) ? "on" : ""}`}
            title={S.limits.limit(controller.maxDevices.value)}
          >
            <input
              type="checkbox"
              checked={value.includes(controller.id)}
              onChange={(e) => toggle(controller.id, e.currentTarget.checked)}
            />
            {controller.name}
          </label>
        ))}
      </fieldset>
      <p class="hint" id="controllers-hint">
        {S.limits.controllersHint}
      </p>
      {chosen.length > 0 ? (
        <>
          <ul class="limit-lines small">
            {chosen.map((controller) => (
              <li key={controller.id}>
                <strong>{controller.name}</strong>: {S.limits.limit(controller.maxDevices.value)}
                {controller.port ? ` · port ${controller.port.value}` : ""}
              </li>
            ))}
          </ul>
          <label class="check">
            <input
              type="checkbox"
              checked={leaveOut}
              aria-describedby="leave-out-hint"
              onChange={(e) => onChange({ controllers: value, leaveOutUnsupported: e.currentTarget.checked })}
            />
            {S.limits.leaveOut}
          </label>
          <p class="hint" id="leave-out-hint">
            {S.limits.leaveOutHint}
          </p>
          <FlaggedTypes chosen={chosen} leaveOut={leaveOut} />
        </>
      ) : null}
    </div>
  );
}

function detail(warning: ControllerWarning): string {
  switch (warning.kind) {
    case "device_limit":
    case "port":
      return warning.summary;
    case "device_type":
      return warning.reason;
  }
}

/** What the chosen controllers say: which limit, the numbers, why, the entities concerned and the sources. */
export function ControllerWarnings({
  warnings,
  testId = "controller-warnings",
}: {
  warnings: ControllerWarning[];
  testId?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul class="warnings" data-testid={testId}>
      {warnings.map((warning) => (
        <li
          key={`${warning.controller}-${warning.kind}-${warning.kind === "device_type" ? warning.deviceType : ""}`}
          class={`warning ${warning.kind === "device_type" && warning.effect === "breaks_bridge" ? "warning-bad" : ""}`}
          data-testid="controller-warning"
          data-kind={warning.kind}
        >
          <p class="warning-message">
            {warning.kind === "device_type"
              ? S.limits.typeWarning(
                  warning.controllerName,
                  warning.effect === "breaks_bridge",
                  typeName(warning.deviceType),
                  warning.entities.length,
                )
              : warning.message}
          </p>
          <p class="small muted">{detail(warning)}</p>
          {warning.kind === "device_type" ? (
            <p class="small entity-list">{S.limits.entitiesOf(warning.entities.map((id) => id ?? "plugin").join(", "))}</p>
          ) : null}
          <Sources sources={warning.sources} />
        </li>
      ))}
    </ul>
  );
}
