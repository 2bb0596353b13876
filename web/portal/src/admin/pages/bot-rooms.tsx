import { useEffect, useState } from "preact/hooks";
import { attempt, confirmDialog } from "../../../../common/components/notify.tsx";
import { Field } from "../../../../common/components/ui.tsx";
import { A } from "../../strings/admin.ts";
import { assignRoom, type BotDetail, FEATURE_KEYS, setFeature, unassignRoom } from "../api.ts";

const featureName = (key: string) => A.bots.features[key as keyof typeof A.bots.features] ?? key;

/** The rooms the bot serves: add by room ID (with an optional alias), remove with its room-scoped toggles. */
export function BotRooms({ bot, onChanged }: { bot: BotDetail; onChanged: () => void }) {
  const [roomId, setRoomId] = useState("");
  const [alias, setAlias] = useState("");
  const [busy, setBusy] = useState(false);
  const roomError = roomId && !/^!\S+$/.test(roomId) ? A.bots.roomIdRule : null;
  const aliasError = alias && !/^#[^\s:]+:\S+$/.test(alias) ? A.bots.aliasRule : null;
  const add = async (event: Event) => {
    event.preventDefault();
    if (!roomId || roomError || aliasError) return;
    setBusy(true);
    const done = await attempt(
      A.bots.addRoom,
      () => assignRoom(bot.id, { roomId: roomId.trim(), roomAlias: alias.trim() || null }),
      A.bots.roomAdded,
    );
    setBusy(false);
    if (done) {
      setRoomId("");
      setAlias("");
      onChanged();
    }
  };
  const remove = async (assignmentId: string, room: string) => {
    const ok = await confirmDialog({
      title: A.bots.removeRoomTitle(room),
      text: A.bots.removeRoomText,
      confirmLabel: A.common.remove,
    });
    if (ok && (await attempt(A.common.remove, () => unassignRoom(bot.id, assignmentId)))) onChanged();
  };
  return (
    <>
      {bot.rooms.length === 0 ? (
        <p class="muted">{A.bots.noRooms}</p>
      ) : (
        <ul class="list" data-testid="bot-rooms">
          {bot.rooms.map((room) => (
            <li key={room.id} class="list-row">
              <span class="row-main">
                <code>{room.roomId}</code>
                {room.roomAlias ? <span class="muted small block">{room.roomAlias}</span> : null}
              </span>
              <button
                type="button"
                class="btn btn-small btn-danger-outline"
                aria-label={A.bots.removeRoomTitle(room.roomId)}
                onClick={() => remove(room.id, room.roomId)}
              >
                {A.common.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={add} noValidate>
        <Field label={A.bots.roomId} error={roomError}>
          {(props) => (
            <input
              {...props}
              type="text"
              spellcheck={false}
              placeholder="!abc123:example.org"
              value={roomId}
              onInput={(e) => setRoomId(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={A.bots.roomAlias} error={aliasError}>
          {(props) => (
            <input
              {...props}
              type="text"
              spellcheck={false}
              placeholder="#room:example.org"
              value={alias}
              onInput={(e) => setAlias(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="btn" disabled={busy || !roomId}>
          {A.bots.addRoom}
        </button>
      </form>
    </>
  );
}

/**
 * The ten feature toggles, global (one switch each) and per room (an override for one assigned room). Each switch
 * saves at once; a refusal puts it back and says why.
 */
export function BotFeatures({ bot, onChanged }: { bot: BotDetail; onChanged: () => void }) {
  const [pending, setPending] = useState<string | null>(null);
  const [room, setRoom] = useState(bot.rooms[0]?.roomId ?? "");
  const [feature, setFeatureKey] = useState<string>(FEATURE_KEYS[0]);
  // A switch shows its new position at once; the reloaded bot replaces the guess, a refusal puts it back.
  const [optimistic, setOptimistic] = useState<Record<string, boolean>>({});
  useEffect(() => setOptimistic({}), [bot.features]);
  const slot = (key: string, scope: string, scopeId: string | null) => `${scope}:${scopeId ?? ""}:${key}`;
  const shown = (key: string, scope: string, scopeId: string | null, saved: boolean) =>
    optimistic[slot(key, scope, scopeId)] ?? saved;
  const globalOn = (key: string) => bot.features.some((f) => f.scope === "global" && f.featureKey === key && f.enabled);
  const toggle = async (key: string, enabled: boolean, scope: "global" | "room", scopeId: string | null) => {
    const id = slot(key, scope, scopeId);
    setPending(id);
    setOptimistic((o) => ({ ...o, [id]: enabled }));
    const done = await attempt(A.bots.toggleFailed(featureName(key)), () =>
      setFeature(bot.id, { featureKey: key, enabled, scope, scopeId }),
    );
    setPending(null);
    if (done) onChanged();
    else
      setOptimistic((o) => {
        const { [id]: _dropped, ...rest } = o;
        return rest;
      });
  };
  const roomToggles = bot.features.filter((f) => f.scope === "room");
  return (
    <>
      <fieldset>
        <legend>{A.bots.globalFeatures}</legend>
        <ul class="toggles" data-testid="bot-features">
          {FEATURE_KEYS.map((key) => (
            <li key={key}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={shown(key, "global", null, globalOn(key))}
                  disabled={pending !== null}
                  onChange={(e) => toggle(key, e.currentTarget.checked, "global", null)}
                />
                {featureName(key)}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <h3>{A.bots.roomFeatures}</h3>
      {roomToggles.length > 0 ? (
        <ul class="toggles">
          {roomToggles.map((f) => (
            <li key={f.id}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={shown(f.featureKey, "room", f.scopeId, f.enabled)}
                  disabled={pending !== null}
                  onChange={(e) => toggle(f.featureKey, e.currentTarget.checked, "room", f.scopeId)}
                />
                {featureName(f.featureKey)} <code class="small">{f.scopeId}</code>
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      {bot.rooms.length === 0 ? (
        <p class="muted small">{A.bots.roomFeaturesNeedRoom}</p>
      ) : (
        <div class="inline-form">
          <label class="inline-field">
            {A.bots.room}
            <select value={room} onChange={(e) => setRoom(e.currentTarget.value)}>
              {bot.rooms.map((r) => (
                <option key={r.id} value={r.roomId}>
                  {r.roomAlias ?? r.roomId}
                </option>
              ))}
            </select>
          </label>
          <label class="inline-field">
            {A.bots.feature}
            <select value={feature} onChange={(e) => setFeatureKey(e.currentTarget.value)}>
              {FEATURE_KEYS.map((key) => (
                <option key={key} value={key}>
                  {featureName(key)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="btn btn-small"
            disabled={pending !== null}
            onClick={() => toggle(feature, true, "room", room)}
          >
            {A.bots.enableInRoom}
          </button>
          <button
            type="button"
            class="btn btn-small"
            disabled={pending !== null}
            onClick={() => toggle(feature, false, "room", room)}
          >
            {A.bots.disableInRoom}
          </button>
        </div>
      )}
    </>
  );
}
