/**
 * The built-in Camera plugin (experimental, docs/plugins.md "Camera plugin"): every camera entity of the `cameras`
 * setting becomes a Matter Camera (0x0142) on the bridge, whose live view is relayed to Home Assistant's own WebRTC
 * signalling (or, for controllers that ask the camera to offer, through the hub's media relay) and whose snapshots
 * are HA's camera images. No devices until configured; saved settings apply at once
 * (cameras added or removed live, device ids = entity ids so endpoint numbers stay stable). The first camera opens
 * Matter over TCP on the bridge's port. The status line names the cameras and live sessions; its details carry the
 * skipped ids, cameras HA offers no WebRTC for, and the host's receive buffer advice.
 */

import type { HubPlugin, PluginConfig, PluginContext } from "../../api.ts";
import type { BuiltinServices, CameraHa } from "../../builtin-services.ts";
import { CAMERA_SCHEMA, parseCameraSettings } from "./camera-settings.ts";
import { checkReceiveBuffer, type ReceiveBufferReport } from "./receive-buffer.ts";
import { CameraRelay } from "./webrtc-relay.ts";

export const CAMERA_PLUGIN = "camera";
const NOT_CONFIGURED = "not configured: no cameras until the settings are saved";

/** What Home Assistant says about a camera's live view. */
type LiveView = "webrtc" | "no webrtc" | "unknown";

export class CameraPlugin implements HubPlugin {
  readonly name = CAMERA_PLUGIN;
  readonly version = "1.0.0";
  #context: PluginContext | undefined;
  #ha: CameraHa | undefined;
  #haKey = "";
  readonly #relays = new Map<string, CameraRelay>();
  /** Device ids (entity ids) registered on the bridge; a relay exists for each while HA's connection stays. */
  readonly #registered = new Set<string>();
  readonly #liveView = new Map<string, LiveView>();
  #warnings: string[] = [];
  #receiveBuffer: ReceiveBufferReport | undefined;
  #offReady: (() => void) | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly services: BuiltinServices,
    private readonly receiveBuffer: () => Promise<ReceiveBufferReport> = checkReceiveBuffer,
  ) {}

  onStart(context: PluginContext): void {
    this.#context = context;
    this.services.setStatus(NOT_CONFIGURED, undefined, { needsSettings: true });
  }

  onConfigChanged(config: PluginConfig): Promise<void> {
    return this.#serial(() => this.#apply(config));
  }

  onConfigure(): void {}

  async onShutdown(): Promise<void> {
    await this.#serial(async () => {
      for (const relay of this.#relays.values()) relay.dispose("hangup");
      this.#relays.clear();
      this.#registered.clear();
      await this.#closeHa();
    });
    this.#context = undefined;
  }

  getConfigSchema() {
    return CAMERA_SCHEMA;
  }

  async #apply(config: PluginConfig): Promise<void> {
    const context = this.#context;
    if (!context) return;
    this.#warnings = [];
    const settings = parseCameraSettings(config, (warning) => {
      this.#warnings.push(warning);
      context.log.warn(warning);
    });
    const haKey = settings.ha ? `${settings.ha.url}\n${settings.ha.token}` : "";
    if (!this.#ha || haKey !== this.#haKey) {
      // New credentials: sessions on the old connection end; the cameras are registered again on the new one.
      for (const relay of this.#relays.values()) relay.dispose("failed");
      this.#relays.clear();
      await this.#closeHa();
      this.#ha = this.services.openCameraHa(settings.ha ?? undefined);
      this.#haKey = haKey;
      this.#offReady = this.#ha.onReady(() => void this.#probeLiveView([...this.#relays.keys()]));
    }
    const ha = this.#ha;
    const wanted = new Set(settings.cameras);
    for (const entityId of [...this.#registered]) {
      if (wanted.has(entityId)) continue;
      const relay = this.#relays.get(entityId);
      this.#relays.delete(entityId);
      this.#liveView.delete(entityId);
      relay?.dispose("hangup");
      this.#registered.delete(entityId);
      await context.unregisterDevice(entityId).catch(() => undefined);
    }
    const added: string[] = [];
    for (const entityId of settings.cameras) {
      if (this.#relays.has(entityId)) continue;
      const relay = new CameraRelay(entityId, ha, context.log, () => this.#report());
      await context.registerDevice(
        this.services.cameraDevice({ id: entityId, name: ha.friendlyName(entityId) ?? entityId, backend: relay }),
      );
      this.#relays.set(entityId, relay);
      this.#registered.add(entityId);
      added.push(entityId);
    }
    // No cameras: no reason to keep a connection of its own open.
    if (this.#registered.size === 0) await this.#closeHa();
    if (this.#relays.size > 0 && !this.#receiveBuffer) {
      this.#receiveBuffer = await this.receiveBuffer();
      if (this.#receiveBuffer.hint) context.log.warn(this.#receiveBuffer.hint);
    }
    this.#report();
    void this.#probeLiveView(added);
  }

  /** Asks HA which cameras it can stream over WebRTC (in the background: HA may be slow or away). */
  async #probeLiveView(entityIds: string[]): Promise<void> {
    const ha = this.#ha;
    if (!ha) return;
    await Promise.all(
      entityIds.map(async (entityId) => {
        try {
          const types = await ha.streamTypes(entityId);
          this.#liveView.set(entityId, types.includes("web_rtc") ? "webrtc" : "no webrtc");
          if (!types.includes("web_rtc"))
            this.#context?.log.warn(`${entityId}: Home Assistant offers no WebRTC stream for it; only snapshots will work`);
        } catch {
          this.#liveView.set(entityId, "unknown");
        }
      }),
    );
    this.#report();
  }

  #report(): void {
    if (!this.#context) return;
    if (this.#relays.size === 0) {
      this.services.setStatus(NOT_CONFIGURED, this.#warnings.length > 0 ? { warnings: this.#warnings } : undefined, {
        needsSettings: true,
      });
      return;
    }
    const cameras = [...this.#relays.values()].map((relay) => ({
      entityId: relay.entityId,
      liveView: this.#liveView.get(relay.entityId) ?? "unknown",
      sessions: relay.sessions,
    }));
    const sessions = cameras.reduce((sum, camera) => sum + camera.sessions, 0);
    const line =
      `${cameras.length} camera${cameras.length === 1 ? "" : "s"}: ${cameras.map((c) => c.entityId).join(", ")}; ` +
      `${sessions} live session${sessions === 1 ? "" : "s"}${this.#warnings.length > 0 ? `; ${this.#warnings.length} skipped (see details)` : ""}`;
    this.services.setStatus(line, {
      warnings: this.#warnings,
      cameras,
      receiveBuffer: this.#receiveBuffer ?? null,
    });
  }

  async #closeHa(): Promise<void> {
    this.#offReady?.();
    this.#offReady = undefined;
    await this.#ha?.close();
    this.#ha = undefined;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
