import { useEffect, useMemo, useState } from "preact/hooks";
import { Card, Empty, ErrorMessage, Loading, Pager } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { useStore } from "../../../common/store.ts";
import { useAsync, useDebounced, useInterval } from "../../../common/use-async.ts";
import { bridgeDevices } from "../api/bridges.ts";
import { live, watchDevices } from "../api/live.ts";
import { listMappings } from "../api/mappings.ts";
import type { Bridge, BridgeDeviceInfo, DeviceTypeKey, EntityMapping, PluginDeviceInfo } from "../api/types.ts";
import { carriedText, partText, withParts } from "../lib/carried.ts";
import { S } from "../strings.ts";
import { MappingEditor } from "./mapping-editor.tsx";

type Tab = "exposed" | "skipped" | "failed";
const PAGE = 100;

const typeLabel = (key: string | null) => (key ? (S.deviceTypes[key as DeviceTypeKey] ?? key) : "—");

/** The Matter type, and on a second line what the endpoint carries from its companions ("+ battery 84 %"). */
function TypeCell({ device }: { device: BridgeDeviceInfo }) {
  const carried = carriedText(device.carries);
  return (
    <td data-label={S.devices.type}>
      {typeLabel(device.deviceType)}
      {carried ? (
        <span
          class="carries"
          data-testid="device-carries"
          title={S.devices.carriedFrom(device.carries.map((part) => part.entityId).join(", "))}
        >
          {carried}
        </span>
      ) : null}
    </td>
  );
}

/**
 * One row. `main` is set for an entity composed into another entity's endpoint: the row says "part of <that
 * endpoint>" and shows the value the endpoint carries for it, and sits under it (see withParts).
 */
function DeviceRow({
  bridgeId,
  device,
  tab,
  mapping,
  main,
  editing,
  onEdit,
}: {
  bridgeId: string;
  device: BridgeDeviceInfo;
  tab: Tab;
  mapping: EntityMapping | undefined;
  main: { name: string; all: string; device: BridgeDeviceInfo | undefined } | null;
  editing: boolean;
  onEdit: () => void;
}) {
  // `?? []`: rows of a hub that lists no carried parts yet.
  const carried = (main?.device?.carries ?? []).find((part) => part.entityId === device.entityId);
  return (
    <tr
      data-entity-id={device.entityId}
      data-testid="device-row"
      data-part-of={main ? device.composedInto : undefined}
      class={main ? "part-row" : undefined}
    >
      <td data-label={S.devices.name}>
        <span class="device-name">{mapping?.customName || device.name}</span>
        <code class="muted small">{device.entityId}</code>
      </td>
      {tab === "exposed" && main ? (
        <>
          <td class="muted" data-testid="part-of" title={main.all}>
            {S.devices.partOf(main.name)}
          </td>
          <td data-label={S.devices.state} data-testid="device-state" class="reading">
            {carried ? partText(carried) : (device.state ?? "—")}
          </td>
          <td />
        </>
      ) : tab === "exposed" ? (
        <>
          <TypeCell device={device} />
          <td data-label={S.devices.state} data-testid="device-state">
            {device.state ?? "—"}
          </td>
          <td>
            <span class={`pill ${device.reachable ? "pill-ok" : "pill-bad"}`}>
              {device.reachable ? S.devices.reachable : S.devices.unreachable}
            </span>
          </td>
        </>
      ) : (
        <>
          <td data-label={S.devices.state}>{device.state ?? "—"}</td>
          <td data-label={S.devices.reason} class={tab === "failed" ? "error-text" : undefined}>
            {device.skipped ?? device.failed}
          </td>
        </>
      )}
      <td>
        {mapping ? <span class="pill">{S.devices.mapped}</span> : null}
        {mapping?.detached ? <span class="pill">{S.devices.detachedPill}</span> : null}
        <button
          type="button"
          class="btn btn-small"
          aria-expanded={editing}
          aria-label={S.devices.editMapping(device.entityId)}
          onClick={onEdit}
        >
          {S.common.edit}
        </button>
        {device.endpointNumber !== null && !main ? (
          <Link
            class="btn btn-small"
            href={`/bridges/${bridgeId}/endpoints/${device.endpointNumber}`}
            aria-label={S.inspector.inspectLabel(mapping?.customName || device.name)}
            data-testid="inspect"
          >
            {S.inspector.inspect}
          </Link>
        ) : null}
      </td>
    </tr>
  );
}

/** The bridge's devices: exposed ones with their Matter type, state and reachability; skipped and failed ones with why. */
export function BridgeDevices({ bridge }: { bridge: Bridge }) {
  const devices = useAsync((signal) => bridgeDevices(bridge.id, signal), [bridge.id]);
  const mappings = useAsync((signal) => listMappings(bridge.id, signal), [bridge.id]);
  const [tab, setTab] = useState<Tab>("exposed");
  const [query, setQuery] = useState("");
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const needle = useDebounced(query.trim().toLowerCase(), 200);

  // Live: the hub pushes this bridge's rows (a snapshot whenever the device set changes, then the rows whose state
  // changed). Without the socket the list is re-read while visible: often for small bridges, rarely for huge ones.
  const { mode } = useStore(live);
  useEffect(
    () =>
      watchDevices({
        bridgeId: bridge.id,
        snapshot: (data) =>
          devices.setData(() => ({
            bridgeId: bridge.id,
            devices: data.devices as BridgeDeviceInfo[],
            total: data.devices.length,
            pluginDevices: data.pluginDevices as PluginDeviceInfo[],
          })),
        update: (rows) =>
          devices.setData((previous) => {
            if (!previous) return previous as never;
            const changed = new Map((rows as BridgeDeviceInfo[]).map((row) => [row.entityId, row]));
            return { ...previous, devices: previous.devices.map((row) => changed.get(row.entityId) ?? row) };
          }),
      }),
    [bridge.id],
  );
  const total = devices.data?.total ?? 0;
  useInterval(() => (mode === "live" ? undefined : devices.reload(true)), total > 1000 ? 15_000 : 3000);
  useEffect(() => setOffset(0), [tab, needle]);

  // Exposed: each endpoint followed by the entities composed into it (they have no endpoint, type or reason).
  const groups = useMemo(() => {
    const all = devices.data?.devices ?? [];
    const mains = all.filter((d) => d.deviceType !== null && !d.skipped && !d.failed && !d.composedInto);
    const parts = all.filter((d) => d.composedInto && !d.skipped && !d.failed);
    return {
      exposed: withParts(mains, parts),
      endpoints: mains.length,
      skipped: all.filter((d) => d.skipped),
      failed: all.filter((d) => d.failed),
    };
  }, [devices.data]);
  const byId = useMemo(() => new Map((devices.data?.devices ?? []).map((d) => [d.entityId, d])), [devices.data]);
  const mappingOf = useMemo(() => new Map((mappings.data?.mappings ?? []).map((m) => [m.entityId, m])), [mappings.data]);
  // A battery goes on every main endpoint of its device: companion → every endpoint that carries it.
  const carriersOf = useMemo(() => {
    const carriers = new Map<string, string[]>();
    for (const row of devices.data?.devices ?? [])
      for (const part of row.carries ?? []) carriers.set(part.entityId, [...(carriers.get(part.entityId) ?? []), row.entityId]);
    return carriers;
  }, [devices.data]);
  const nameOf = (entityId: string) => mappingOf.get(entityId)?.customName || byId.get(entityId)?.name || entityId;
  /**
   * The endpoint a composed entity is part of (`composedInto`), and how the list names it: "Lock", or "Motion and
   * 2 more" when other endpoints of the device carry it too.
   */
  const mainOf = (device: BridgeDeviceInfo) => {
    if (!device.composedInto) return null;
    const others = (carriersOf.get(device.entityId) ?? []).filter((id) => id !== device.composedInto);
    return {
      name: S.devices.carriers(nameOf(device.composedInto), others.length),
      all: [device.composedInto, ...others].map(nameOf).join(", "),
      device: byId.get(device.composedInto),
    };
  };
  const rows = useMemo(
    () =>
      needle ? groups[tab].filter((d) => d.entityId.includes(needle) || d.name.toLowerCase().includes(needle)) : groups[tab],
    [groups, tab, needle],
  );
  const visible = rows.slice(offset, offset + PAGE);
  const columns = tab === "exposed" ? 5 : 4;

  const tabs: [Tab, string][] = [
    ["exposed", S.devices.exposed(groups.endpoints)],
    ["skipped", S.devices.skipped(groups.skipped.length)],
    ["failed", S.devices.failed(groups.failed.length)],
  ];

  return (
    <Card
      title={S.devices.title}
      data-testid="devices"
      actions={
        bridge.status === "running" ? (
          <Link class="btn btn-small" href={`/bridges/${bridge.id}/endpoints/0`} data-testid="inspect-node">
            {S.inspector.inspectNode}
          </Link>
        ) : undefined
      }
    >
      {devices.error ? <ErrorMessage error={devices.error} onRetry={() => devices.reload()} /> : null}
      {mappings.error ? <ErrorMessage error={mappings.error} onRetry={() => mappings.reload()} /> : null}
      {!devices.data && !devices.error ? <Loading /> : null}
      {devices.data ? (
        <>
          <div class="tabs" role="tablist" aria-label={S.devices.title}>
            {tabs.map(([key, label]) => (
              <button
                key={key}
                type="button"
                role="tab"
                id={`tab-${key}`}
                aria-selected={tab === key}
                aria-controls="devices-panel"
                class={`tab ${tab === key ? "active" : ""}`}
                onClick={() => setTab(key)}
              >
                {label}
              </button>
            ))}
          </div>
          <div id="devices-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
            <div class="toolbar">
              <input
                type="search"
                aria-label={S.devices.filter}
                placeholder={S.devices.filter}
                value={query}
                onInput={(e) => setQuery(e.currentTarget.value)}
              />
              <span class="muted small" data-testid="devices-live" data-live={mode === "live" ? "yes" : "no"}>
                {mode === "live" ? S.devices.live : S.devices.polled}
              </span>
            </div>
            {rows.length === 0 ? (
              <Empty title={tab === "exposed" && !needle ? S.devices.emptyExposed : S.devices.empty} />
            ) : (
              <table class="table responsive">
                <thead>
                  <tr>
                    <th scope="col">{S.devices.name}</th>
                    {tab === "exposed" ? (
                      <>
                        <th scope="col">{S.devices.type}</th>
                        <th scope="col">{S.devices.state}</th>
                        <th scope="col">{S.devices.reachable}</th>
                      </>
                    ) : (
                      <>
                        <th scope="col">{S.devices.state}</th>
                        <th scope="col">{S.devices.reason}</th>
                      </>
                    )}
                    <th scope="col">{S.devices.mapping}</th>
                  </tr>
                </thead>
                <tbody>
                  {visible.map((device) => [
                    <DeviceRow
                      key={device.entityId}
                      bridgeId={bridge.id}
                      device={device}
                      tab={tab}
                      mapping={mappingOf.get(device.entityId)}
                      main={mainOf(device)}
                      editing={editing === device.entityId}
                      onEdit={() => setEditing(editing === device.entityId ? null : device.entityId)}
                    />,
                    editing === device.entityId ? (
                      <tr key={`${device.entityId}-edit`} class="edit-row">
                        <td colSpan={columns}>
                          <MappingEditor
                            bridgeId={bridge.id}
                            device={device}
                            mapping={mappingOf.get(device.entityId)}
                            partOf={mainOf(device)?.name ?? null}
                            onDone={(changed) => {
                              setEditing(null);
                              if (changed) {
                                mappings.reload(true);
                                devices.reload(true);
                              }
                            }}
                          />
                        </td>
                      </tr>
                    ) : null,
                  ])}
                </tbody>
              </table>
            )}
            <Pager total={rows.length} offset={offset} limit={PAGE} onChange={setOffset} label={S.devices.title} />
          </div>
          <PluginDevices bridgeId={bridge.id} devices={devices.data.pluginDevices ?? []} />
        </>
      ) : null}
    </Card>
  );
}

/** Devices the bridge's plugins added (no Home Assistant entity behind them); managed on the Plugins page. */
function PluginDevices({ bridgeId, devices }: { bridgeId: string; devices: PluginDeviceInfo[] }) {
  if (devices.length === 0) return null;
  return (
    <section class="plugin-devices" data-testid="plugin-devices">
      <h3>{S.devices.pluginDevices(devices.length)}</h3>
      <ul class="list">
        {devices.map((device) => (
          <li key={device.endpointId} class="list-row">
            <div class="row-main">
              <strong>{device.name}</strong>
              <span class="muted small">
                {S.devices.fromPlugin(device.plugin)} · {typeLabel(device.deviceType)}
                {device.endpointNumber !== null ? ` · ${S.devices.endpoint(device.endpointNumber)}` : ""}
              </span>
            </div>
            {device.endpointNumber !== null ? (
              <Link
                class="btn btn-small"
                href={`/bridges/${bridgeId}/endpoints/${device.endpointNumber}`}
                aria-label={S.inspector.inspectLabel(device.name)}
              >
                {S.inspector.inspect}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
