/**
 * What the camera plugin asks of Home Assistant (BuiltinServices.openCameraHa): its WebRTC signalling over the
 * WebSocket API (`camera/webrtc/offer` as a subscription streaming `session`, `answer`, `candidate` and `error`
 * events; `camera/webrtc/candidate`; `camera/webrtc/get_client_config`; `camera/capabilities`) and still images
 * from `/api/camera_proxy/<entity_id>` over HTTP. By default it shares the hub's connection (same credentials as the bridge); with `haUrl` + `haToken` it opens one
 * of its own, closed again on shutdown. Tokens stay inside the HomeAssistantService.
 */
import type { Logger } from "../../../../lib/logger.ts";
import { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import type { CameraHa, CameraHaFactory, HaIceServer, HaWebRtcEvent } from "../builtin-services.ts";

/** How long a camera image may take before the snapshot fails. */
const IMAGE_TIMEOUT_MS = 10_000;

function accessTo(service: HomeAssistantService, closeService: () => Promise<void>): CameraHa {
  const offs = new Set<() => void>();
  const listen = (event: "disconnected" | "ready", listener: () => void) => {
    service.client.on(event, listener);
    const off = () => {
      service.client.off(event, listener);
      offs.delete(off);
    };
    offs.add(off);
    return off;
  };
  return {
    friendlyName(entityId) {
      const name = service.model.states.get(entityId)?.attributes.friendly_name;
      return typeof name === "string" && name.trim() !== "" ? name : undefined;
    },
    async offer(entityId, sdp, onEvent) {
      // No resubscription after a reconnect: HA's session died with the connection and an old offer is worthless.
      return service.client.connection.subscribeMessage<HaWebRtcEvent>(
        onEvent,
        { type: "camera/webrtc/offer", entity_id: entityId, offer: sdp },
        { resubscribe: false },
      );
    },
    async candidate(entityId, sessionId, candidate) {
      await service.client.connection.sendMessagePromise({
        type: "camera/webrtc/candidate",
        entity_id: entityId,
        session_id: sessionId,
        candidate,
      });
    },
    async iceServers(entityId) {
      const result = await service.client.connection.sendMessagePromise<{ configuration?: { iceServers?: HaIceServer[] } }>({
        type: "camera/webrtc/get_client_config",
        entity_id: entityId,
      });
      return result.configuration?.iceServers ?? [];
    },
    async streamTypes(entityId) {
      const result = await service.client.connection.sendMessagePromise<{ frontend_stream_types?: string[] }>({
        type: "camera/capabilities",
        entity_id: entityId,
      });
      return result.frontend_stream_types ?? [];
    },
    async image(entityId, size) {
      const query = size.width > 0 && size.height > 0 ? `?width=${size.width}&height=${size.height}` : "";
      const response = await service.fetchApi(`/api/camera_proxy/${encodeURIComponent(entityId)}${query}`, {
        signal: AbortSignal.timeout(IMAGE_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status} from the camera proxy`);
      return new Uint8Array(await response.arrayBuffer());
    },
    onDisconnect: (listener) => listen("disconnected", listener),
    onReady: (listener) => listen("ready", listener),
    async close() {
      for (const off of [...offs]) off();
      await closeService();
    },
  };
}

/** The factory the camera plugin gets: the hub's service shared, or a new service for its own credentials. */
export function cameraHaFactory(homeAssistant: HomeAssistantService, log: Logger): CameraHaFactory {
  return (own) => {
    if (!own) return accessTo(homeAssistant, async () => undefined);
    const service = new HomeAssistantService({
      url: own.url.replace(/\/+$/, ""),
      token: own.token,
      log: log.child({ component: "camera-ha" }),
    });
    service.start();
    return accessTo(service, () => service.stop());
  };
}
