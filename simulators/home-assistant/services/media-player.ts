/**
 * Media players after HA's media_player/__init__.py: a player that is off shows only its capability attributes
 * (`source_list`, `sound_mode_list`, `group_members`); turning it on brings back what it was playing. Services are
 * gated on `MediaPlayerEntityFeature` as HA registers them; transport and volume do nothing while off.
 */
import { serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, nowIso, type ServiceRuntime, type ServiceSpec, writeWith } from "./types.ts";

/** `MediaPlayerEntityFeature`. */
export const MediaFeature = {
  PAUSE: 1,
  SEEK: 2,
  VOLUME_SET: 4,
  VOLUME_MUTE: 8,
  PREVIOUS_TRACK: 16,
  NEXT_TRACK: 32,
  TURN_ON: 128,
  TURN_OFF: 256,
  PLAY_MEDIA: 512,
  VOLUME_STEP: 1024,
  SELECT_SOURCE: 2048,
  STOP: 4096,
  CLEAR_PLAYLIST: 8192,
  PLAY: 16384,
  SHUFFLE_SET: 32768,
  SELECT_SOUND_MODE: 65536,
  BROWSE_MEDIA: 131072,
  REPEAT_SET: 262144,
  GROUPING: 524288,
} as const;

/** Attributes HA leaves out while the player is off (its `state_attributes` beyond `group_members`). */
const SESSION_KEYS = new Set([
  "volume_level",
  "is_volume_muted",
  "media_content_id",
  "media_content_type",
  "media_duration",
  "media_position",
  "media_position_updated_at",
  "media_title",
  "media_artist",
  "media_album_name",
  "media_track",
  "app_id",
  "app_name",
  "sound_mode",
  "shuffle",
  "repeat",
  "source",
  "entity_picture",
]);

const isOff = (call: EntityCall) => call.state.state === "off" || call.state.state === "standby";

function turnOff(call: EntityCall, rt: ServiceRuntime): void {
  if (isOff(call)) return;
  const session: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.state.attributes)) (SESSION_KEYS.has(key) ? session : kept)[key] = value;
  rt.memory(call.entityId).session = session;
  rt.write(call.entityId, "off", kept, call.context);
}

function turnOn(call: EntityCall, rt: ServiceRuntime): void {
  if (!isOff(call)) return;
  const session = (rt.memory(call.entityId).session as Record<string, unknown> | undefined) ?? {
    volume_level: 0.3,
    is_volume_muted: false,
  };
  // Sessions end when the player is switched off; it comes back idle with its volume and source.
  const restored = Object.fromEntries(
    Object.entries(session).filter(([key]) => !key.startsWith("media_") && key !== "entity_picture"),
  );
  rt.write(call.entityId, "on", { ...restored, ...call.state.attributes }, call.context);
}

function whileOn(handler: (call: EntityCall, rt: ServiceRuntime) => void) {
  return (call: EntityCall, rt: ServiceRuntime) => (isOff(call) ? undefined : handler(call, rt));
}

function setVolume(call: EntityCall, rt: ServiceRuntime, level: number): void {
  writeWith(rt, call, call.state.state, { volume_level: Math.round(Math.max(0, Math.min(1, level)) * 100) / 100 });
}

function changeTrack(step: 1 | -1) {
  return whileOn((call, rt) => {
    const track = typeof call.state.attributes.media_track === "number" ? call.state.attributes.media_track : 1;
    const next = Math.max(1, track + step);
    writeWith(rt, call, call.state.state, { media_track: next, media_position: 0, media_position_updated_at: nowIso(rt) });
  });
}

export function mediaPlayerServices(): ServiceSpec[] {
  const F = MediaFeature;
  const service = (
    name: string,
    fields: Parameters<typeof entityService>[2],
    handle: (call: EntityCall, rt: ServiceRuntime) => void,
    features: number[],
  ) => entityService("media_player", name, fields, handle, { requiredFeatures: features });
  return [
    service("turn_on", {}, turnOn, [F.TURN_ON]),
    service("turn_off", {}, turnOff, [F.TURN_OFF]),
    service("toggle", {}, (call, rt) => (isOff(call) ? turnOn(call, rt) : turnOff(call, rt)), [F.TURN_OFF | F.TURN_ON]),
    service(
      "volume_set",
      { volume_level: required(v.float({ min: 0, max: 1 })) },
      whileOn((call, rt) => setVolume(call, rt, call.data.volume_level as number)),
      [F.VOLUME_SET],
    ),
    service(
      "volume_up",
      {},
      whileOn((call, rt) => setVolume(call, rt, ((call.state.attributes.volume_level as number) ?? 0) + 0.1)),
      [F.VOLUME_SET, F.VOLUME_STEP],
    ),
    service(
      "volume_down",
      {},
      whileOn((call, rt) => setVolume(call, rt, ((call.state.attributes.volume_level as number) ?? 0) - 0.1)),
      [F.VOLUME_SET, F.VOLUME_STEP],
    ),
    service(
      "volume_mute",
      { is_volume_muted: required(v.bool()) },
      whileOn((call, rt) => writeWith(rt, call, call.state.state, { is_volume_muted: call.data.is_volume_muted })),
      [F.VOLUME_MUTE],
    ),
    service(
      "media_play",
      {},
      whileOn((call, rt) => writeWith(rt, call, "playing")),
      [F.PLAY],
    ),
    service(
      "media_pause",
      {},
      whileOn((call, rt) => writeWith(rt, call, "paused")),
      [F.PAUSE],
    ),
    service(
      "media_stop",
      {},
      whileOn((call, rt) => writeWith(rt, call, "idle")),
      [F.STOP],
    ),
    service(
      "media_play_pause",
      {},
      whileOn((call, rt) => writeWith(rt, call, call.state.state === "playing" ? "paused" : "playing")),
      [F.PLAY | F.PAUSE],
    ),
    service("media_next_track", {}, changeTrack(1), [F.NEXT_TRACK]),
    service("media_previous_track", {}, changeTrack(-1), [F.PREVIOUS_TRACK]),
    service(
      "select_source",
      { source: required(v.string()) },
      whileOn((call, rt) => {
        const source = call.data.source as string;
        const sources = Array.isArray(call.state.attributes.source_list) ? call.state.attributes.source_list.map(String) : [];
        // Core passes any source on; integrations reject ones they do not know (e.g. Sonos, Samsung TV).
        if (!sources.includes(source))
          throw serviceValidationError(`Invalid source: ${source}`, "invalid_source", { source }, "media_player");
        writeWith(rt, call, call.state.state, { source });
      }),
      [F.SELECT_SOURCE],
    ),
  ];
}
