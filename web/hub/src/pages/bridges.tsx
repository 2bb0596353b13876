import { useState } from "preact/hooks";
import { attempt, notify } from "../../../common/components/notify.tsx";
import { Empty, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { Link } from "../../../common/hash-router.tsx";
import { useStore } from "../../../common/store.ts";
import { allBridgesAction, setPriorities } from "../api/bridges.ts";
import { applyBridges, live, reloadBridges } from "../api/live.ts";
import type { Bridge } from "../api/types.ts";
import { StatusBadge } from "../components/ui.tsx";
import { S } from "../strings.ts";
import { runBridgeAction } from "./bridge-actions.ts";

async function saveOrder(order: Bridge[]): Promise<void> {
  // Spaced priorities leave room for a bridge created later to go in between by hand.
  const updates = order.map((b, i) => ({ id: b.id, priority: (i + 1) * 10 }));
  applyBridges(order.map((b, i) => ({ ...b, priority: (i + 1) * 10 })));
  const saved = await attempt(S.bridges.prioritiesSaved, () => setPriorities(updates), S.bridges.prioritiesSaved);
  if (saved) applyBridges(saved);
  else void reloadBridges();
}

function move(list: Bridge[], from: number, to: number): Bridge[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item) next.splice(to, 0, item);
  return next;
}

function BridgeRow({
  bridge,
  index,
  count,
  onMove,
  drag,
}: {
  bridge: Bridge;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  drag: { over: number | null; setOver: (i: number | null) => void; from: number | null; setFrom: (i: number | null) => void };
}) {
  const [busy, setBusy] = useState(false);
  const act = async (action: "start" | "stop" | "restart") => {
    setBusy(true);
    await runBridgeAction(bridge, action);
    setBusy(false);
  };
  const running = bridge.status === "running" || bridge.status === "starting";
  return (
    <li
      class={`bridge-row ${drag.over === index && drag.from !== index ? "drop-target" : ""}`}
      draggable
      data-testid="bridge-row"
      data-bridge-id={bridge.id}
      onDragStart={(e) => {
        drag.setFrom(index);
        e.dataTransfer?.setData("text/plain", bridge.id);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        drag.setOver(index);
      }}
      onDragEnd={() => {
        drag.setFrom(null);
        drag.setOver(null);
      }}
      onDrop={(e) => {
        e.preventDefault();
        if (drag.from !== null && drag.from !== index) onMove(drag.from, index);
        drag.setFrom(null);
        drag.setOver(null);
      }}
    >
      <div class="order">
        <button
          type="button"
          class="btn btn-icon"
          aria-label={S.bridges.moveUp(bridge.name)}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          ▲
        </button>
        <button
          type="button"
          class="btn btn-icon"
          aria-label={S.bridges.moveDown(bridge.name)}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          ▼
        </button>
      </div>
      <Link href={`/bridges/${bridge.id}`} class="row-main" aria-label={S.bridges.open(bridge.name)}>
        <strong class="bridge-name">{bridge.name}</strong>
        <span class="muted">
          {S.bridges.port(bridge.port)} · {S.bridges.devices(bridge.deviceCount)} ·{" "}
          {S.bridges.fabrics(bridge.commissioning.fabrics.length)} · {S.bridges.priority(bridge.priority)}
          {bridge.serverMode ? ` · ${S.bridges.serverMode}` : ""}
        </span>
        {bridge.status === "failed" && bridge.statusReason ? <span class="error-text">{bridge.statusReason}</span> : null}
      </Link>
      <StatusBadge status={bridge.status} />
      <div class="row-actions">
        {running ? (
          <button type="button" class="btn btn-small" disabled={busy} onClick={() => act("stop")}>
            {S.bridges.stop}
          </button>
        ) : (
          <button type="button" class="btn btn-small btn-primary" disabled={busy} onClick={() => act("start")}>
            {S.bridges.start}
          </button>
        )}
        <button type="button" class="btn btn-small" disabled={busy || !running} onClick={() => act("restart")}>
          {S.bridges.restart}
        </button>
        <Link class="btn btn-small" href={`/bridges/${bridge.id}/edit`}>
          {S.common.edit}
        </Link>
      </div>
    </li>
  );
}

export function BridgesPage() {
  const { bridges, error } = useStore(live);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState<number | null>(null);
  const [from, setFrom] = useState<number | null>(null);

  const all = async (action: "start" | "stop" | "restart", label: string) => {
    setBusy(true);
    const result = await attempt(label, () => allBridgesAction(action));
    setBusy(false);
    if (!result) return;
    applyBridges(result.bridges);
    const failed = result.results.filter((r) => !r.ok);
    const text = S.bridges.allDone(label, result.results.length - failed.length, failed.length);
    if (failed.length > 0) notify.error(`${text}: ${failed.map((f) => f.error).join("; ")}`);
    else notify.ok(text);
  };

  return (
    <>
      <PageHeader title={S.bridges.title}>
        <Link class="btn btn-primary" href="/bridges/new" data-testid="create-bridge">
          {S.bridges.create}
        </Link>
      </PageHeader>
      {error && !bridges ? <ErrorMessage error={error} onRetry={() => void reloadBridges()} /> : null}
      {!bridges && !error ? <Loading /> : null}
      {bridges && bridges.length === 0 ? (
        <Empty title={S.dashboard.noBridges}>
          <p>{S.dashboard.noBridgesText}</p>
          <Link class="btn btn-primary" href="/bridges/new">
            {S.dashboard.createFirst}
          </Link>
        </Empty>
      ) : null}
      {bridges && bridges.length > 0 ? (
        <>
          <div class="toolbar">
            <button type="button" class="btn" disabled={busy} onClick={() => all("start", S.bridges.startAll)}>
              {S.bridges.startAll}
            </button>
            <button type="button" class="btn" disabled={busy} onClick={() => all("stop", S.bridges.stopAll)}>
              {S.bridges.stopAll}
            </button>
            <button type="button" class="btn" disabled={busy} onClick={() => all("restart", S.bridges.restartAll)}>
              {S.bridges.restartAll}
            </button>
          </div>
          <p class="hint">{S.bridges.dragHint}</p>
          <ul class="bridge-list">
            {bridges.map((bridge, index) => (
              <BridgeRow
                key={bridge.id}
                bridge={bridge}
                index={index}
                count={bridges.length}
                onMove={(a, b) => void saveOrder(move(bridges, a, b))}
                drag={{ over, setOver, from, setFrom }}
              />
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
