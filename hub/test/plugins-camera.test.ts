import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { NodeId } from "@matter/main";
import { Status } from "@matter/main/types";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { testCameraImage } from "../../simulators/home-assistant/camera/test-image.ts";
import { createDemoHome, type HaSimulator, startHaSimulator } from "../../simulators/home-assistant/index.ts";
import type { SlotInfo } from "../src/plugins/managed-slot.ts";
import { api, type BridgeRecord, waitForStatus } from "./support/bridge-fixture.ts";
import { CameraController, REQUESTOR_ENDPOINT } from "./support/camera-controller.ts";
import { LIVE_VIEW, LIVE_VIEW_VIDEO, matterCandidates, nalTypes, tcpOpen, udpSockets } from "./support/camera-live.ts";
import { freeUdpPort } from "./support/matter-fixtures.ts";
import { createTestHub, eventually, type TestHub } from "./support/test-context.ts";
import { WebRtcViewer } from "./support/webrtc-viewer.ts";

const FRONT = "camera.front_door";
const GARDEN = "camera.garden";
const WARN = `"level":"warn"`;
/** A token distinctive enough to search the logs and responses for. */
const TOKEN = "ha-token-c4m3r4-5f1c9e";

describe("camera plugin: HA cameras as Matter cameras, live view through HA's WebRTC", { timeout: 180_000 }, () => {
  let sim: HaSimulator;
  let hub: TestHub;
  let call: ReturnType<typeof api>;
  let controller: CameraController;
  let bridge: BridgeRecord;
  let nodeId: NodeId;
  let port: number;
  let work: string;

  const pluginOn = async () => {
    const { body } = await call<{ bridges: { bridgeId: string; plugins: SlotInfo[] }[] }>("GET", "/api/plugins");
    return body.bridges.find((b) => b.bridgeId === bridge.id)?.plugins.find((p) => p.name === "camera");
  };
  const until = (check: (info: SlotInfo) => boolean, timeoutMs = 15_000) =>
    eventually(async () => {
      const info = await pluginOn();
      return info && check(info) ? info : undefined;
    }, timeoutMs);
  const configure = async (config: Record<string, unknown>) => {
    const saved = await call<{ applied: boolean; error: string | null; plugin: SlotInfo }>(
      "POST",
      `/api/plugins/${bridge.id}/camera/config`,
      { config },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual([saved.body.applied, saved.body.error], [true, null]);
    return saved.body.plugin;
  };
  const endpointOf = (info: SlotInfo, id: string) => info.devices.find((device) => device.id === id)?.endpointNumber ?? null;
  const invoke = (ep: number, cluster: string, command: string, fields?: object) =>
    controller.invoke(nodeId, ep, cluster, command, fields);
  const onlines = () => hub.logLines().filter((line) => line.includes(`${bridge.id} going online`)).length;

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "plugins-camera-"));
    sim = await startHaSimulator({ token: TOKEN, home: createDemoHome(), motionMs: 0 });
    sim.addCamera(FRONT, { friendlyName: "Front door" });
    sim.addCamera(GARDEN, { friendlyName: "Garden", webrtc: false });
    hub = await createTestHub({ ha: { url: sim.url, token: TOKEN }, dataDir: join(work, "data"), start: true });
    await hub.homeAssistant.whenLoaded();
    call = api(hub);
    controller = await CameraController.start({
      storagePath: join(work, "controller"),
      localPort: await freeUdpPort(),
      fabricLabel: "Camera ecosystem",
    });
    port = await freeUdpPort();
    const created = await call<BridgeRecord>("POST", "/api/matter/bridges", {
      name: "Cameras",
      port,
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = created.body;
    await waitForStatus(call, bridge.id, "running");
    nodeId = await controller.commission(bridge.commissioning.manualPairingCode, { ip: "::1", port });
  });
  after(async () => {
    await controller?.close();
    await hub?.stop();
    await sim?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("registers nothing and leaves TCP closed until cameras are configured", async () => {
    const info = await until((p) => p.state === "running");
    assert.equal(info.builtin, true);
    assert.deepEqual(info.devices, []);
    assert.match(info.status ?? "", /not configured/);
    assert.equal(await tcpOpen(port), false);
  });

  it("skips ids HA cannot accept with a warning, de-duplicates, and mounts the camera live with TCP open", async () => {
    const startsBefore = onlines();
    await configure({ cameras: ` ${FRONT}, camera.Front_Door,camera.front-door, ${FRONT}, light.kitchen ` });
    const info = await until((p) => p.devices.length === 1 && /1 camera/.test(p.status ?? ""));
    assert.deepEqual(
      info.devices.map((d) => [d.id, d.name]),
      [[FRONT, "Front door"]],
    );
    const warnings = (info.details as { warnings: string[] }).warnings;
    assert.equal(warnings.length, 3, warnings.join(" | "));
    assert.ok(warnings.some((w) => w.includes('"camera.Front_Door"') && w.includes("skipped")));
    assert.ok(warnings.some((w) => w.includes('"camera.front-door"') && w.includes("skipped")));
    assert.ok(warnings.some((w) => w.includes("light.kitchen is not a camera")));
    assert.match(info.status ?? "", /3 skipped/);
    const buffer = (info.details as { receiveBuffer: { requested: number; granted: number | null; hint: string | null } })
      .receiveBuffer;
    assert.equal(buffer.requested, 4 * 1024 * 1024, "the UDP receive buffer asked for");
    assert.ok(buffer.granted !== null && buffer.granted > 0);
    assert.ok(hub.logLines().some((line) => line.includes("camera.front-door") && line.includes(WARN)));
    assert.equal(await tcpOpen(port), true, "Matter over TCP on the bridge's port");
    assert.equal(onlines(), startsBefore, "applied without a bridge restart");
    await until((p) => (p.details as { cameras?: { liveView: string }[] } | null)?.cameras?.[0]?.liveView === "webrtc");
  });

  /** The viewer's trickled candidates to the camera, as a controller passes its peer's on. */
  const trickle = async (ep: number, id: number, viewer: WebRtcViewer) => {
    if (viewer.candidates.length === 0) return;
    const iceCandidates = matterCandidates(viewer.candidates);
    await invoke(ep, "WebRtcTransportProvider", "provideIceCandidates", { webRtcSessionId: id, iceCandidates });
  };

  /** Allocates an H.264 live-view video stream as a phone would before asking for WebRTC; its id. */
  const allocateLiveView = async (ep: number) => {
    const { videoStreamId } = (await invoke(ep, "CameraAvStreamManagement", "videoStreamAllocate", LIVE_VIEW_VIDEO)) as {
      videoStreamId: number;
    };
    return videoStreamId;
  };

  /** The viewer received H.264 parameter sets and a key frame of the simulated camera's track. */
  const assertH264Arrived = (viewer: WebRtcViewer) => {
    const types = nalTypes(viewer.packets);
    assert.ok(types.has(7) && types.has(8) && types.has(5), `H.264 SPS, PPS and IDR slices arrive (${[...types]})`);
  };

  /** The controller ends session `id`: HA's session closes and the plugin reports no live session. */
  const endAndSeeClosed = async (ep: number, id: number) => {
    await invoke(ep, "WebRtcTransportProvider", "endSession", { webRtcSessionId: id, reason: 2 });
    await eventually(() => sim.cameraStats(FRONT)?.openSessions === 0, 10_000);
    await until((p) => /0 live sessions/.test(p.status ?? ""));
  };

  it("opens a live view through the bridge: the controller's WebRTC peer receives the simulated camera's H.264 RTP", async () => {
    const ep = endpointOf(await until((p) => p.devices.length === 1), FRONT) as number;
    const videoStreamId = await allocateLiveView(ep);
    const viewer = await WebRtcViewer.create();
    try {
      const offer = await viewer.offer();
      const { webRtcSessionId: id } = (await invoke(ep, "WebRtcTransportProvider", "provideOffer", {
        webRtcSessionId: null,
        sdp: offer,
        streamUsage: LIVE_VIEW,
        originatingEndpointId: REQUESTOR_ENDPOINT,
        videoStreams: [videoStreamId],
      })) as { webRtcSessionId: number };
      await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [videoStreamId] });
      const inbox = await eventually(() => {
        const box = controller.inbox.get(id);
        return box && box.answers.length > 0 ? box : undefined;
      }, 15_000);
      assert.match(inbox.answers[0] ?? "", /a=sendonly/, "HA's answer, relayed by the camera endpoint");
      await viewer.answer(inbox.answers[0] as string);
      await trickle(ep, id, viewer);
      let added = 0;
      await eventually(async () => {
        for (const candidate of inbox.candidates.slice(added)) {
          await viewer.addCandidate({
            candidate: candidate.candidate,
            sdpMid: candidate.sdpMid,
            sdpMLineIndex: candidate.sdpmLineIndex,
          });
          added++;
        }
        return viewer.packets.length >= 20;
      }, 20_000);
      assertH264Arrived(viewer);
      assert.equal(sim.cameraStats(FRONT)?.openSessions, 1);
      assert.match((await pluginOn())?.status ?? "", /1 live session/);

      await endAndSeeClosed(ep, id);
    } finally {
      await viewer.close();
    }
  });

  it("serves a controller that solicits the offer: the hub's media relay forwards the simulated camera's H.264 RTP", async () => {
    const ep = endpointOf(await until((p) => p.devices.length === 1), FRONT) as number;
    const videoStreamId = await allocateLiveView(ep);
    const sockets = udpSockets();
    const before = sim.cameraStats(FRONT);
    const response = (await invoke(ep, "WebRtcTransportProvider", "solicitOffer", {
      streamUsage: LIVE_VIEW,
      originatingEndpointId: REQUESTOR_ENDPOINT,
      videoStreams: [videoStreamId],
    })) as { webRtcSessionId: number; deferredOffer: boolean };
    const id = response.webRtcSessionId;
    assert.equal(response.deferredOffer, false);
    await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [videoStreamId] });
    const offer = await eventually(() => controller.inbox.get(id)?.offers[0], 15_000);
    assert.match(offer, /a=sendonly/, "the hub's own offer, through the requestor's Offer command");
    assert.match(offer, /H264\/90000/);
    assert.equal(sim.cameraStats(FRONT)?.offers, (before?.offers ?? 0) + 1, "the hub offered HA itself");
    assert.equal(sim.cameraStats(FRONT)?.openSessions, 1);

    const { viewer, sdp } = await WebRtcViewer.answering(offer);
    try {
      await invoke(ep, "WebRtcTransportProvider", "provideAnswer", { webRtcSessionId: id, sdp });
      await trickle(ep, id, viewer);
      await eventually(() => viewer.packets.length >= 20, 20_000);
      assertH264Arrived(viewer);
      await eventually(() => (sim.cameraStats(FRONT)?.keyframeRequests ?? 0) > (before?.keyframeRequests ?? 0), 5_000);
      assert.match((await pluginOn())?.status ?? "", /1 live session/);

      await endAndSeeClosed(ep, id);
    } finally {
      await viewer.close();
    }
    await eventually(() => udpSockets() === sockets, 10_000);
  });

  it("answers CaptureSnapshot with the image of HA's camera proxy", async () => {
    const ep = endpointOf(await until((p) => p.devices.length === 1), FRONT) as number;
    await invoke(ep, "CameraAvStreamManagement", "snapshotStreamAllocate", {
      imageCodec: 0,
      maxFrameRate: 1,
      minResolution: { width: 160, height: 120 },
      maxResolution: { width: 1920, height: 1080 },
      quality: 80,
    });
    const snapshot = (await invoke(ep, "CameraAvStreamManagement", "captureSnapshot", {
      snapshotStreamId: null,
      requestedResolution: { width: 640, height: 480 },
    })) as { data: Uint8Array; resolution: { width: number; height: number } };
    assert.deepEqual(Buffer.from(snapshot.data), Buffer.from(testCameraImage()));
    assert.deepEqual(snapshot.resolution, { width: 160, height: 120 });
  });

  /** A session the controller opened (offer only: no media needed) on the camera endpoint `ep`. */
  const openSession = async (ep: number) => {
    const videoStreamId = await allocateLiveView(ep);
    const viewer = await WebRtcViewer.create();
    const offer = await viewer.offer();
    await viewer.close();
    const { webRtcSessionId: id } = (await invoke(ep, "WebRtcTransportProvider", "provideOffer", {
      webRtcSessionId: null,
      sdp: offer,
      streamUsage: LIVE_VIEW,
      originatingEndpointId: REQUESTOR_ENDPOINT,
      videoStreams: [videoStreamId],
    })) as { webRtcSessionId: number };
    await controller.registerSession(nodeId, { id, cameraEndpoint: ep, video: [videoStreamId] });
    return id;
  };
  const endReasons = (id: number) =>
    eventually(() => (controller.inbox.get(id)?.ends.length ? controller.inbox.get(id)?.ends : undefined), 15_000);

  it("adds and removes cameras live: a removed camera's endpoint is gone, a returning one gets its number back", async () => {
    const before = await until((p) => p.devices.length === 1);
    const front = endpointOf(before, FRONT) as number;
    const info = await configure({ cameras: `${FRONT},${GARDEN}` });
    assert.equal(info.devices.length, 2);
    const garden = endpointOf(info, GARDEN) as number;
    await until((p) =>
      (p.details as { cameras: { entityId: string; liveView: string }[] }).cameras.some(
        (c) => c.entityId === GARDEN && c.liveView === "no webrtc",
      ),
    );

    // HA offers no WebRTC for the garden camera: its refusal reaches the controller as End (UnknownReason).
    assert.deepEqual(await endReasons(await openSession(garden)), [12]);
    // A live session of a camera taken out of the settings ends with End (UserHangup) and closes at HA.
    const live = await openSession(front);
    await eventually(() => sim.cameraStats(FRONT)?.openSessions === 1, 10_000);
    await configure({ cameras: GARDEN });
    assert.deepEqual(await endReasons(live), [2]);
    await eventually(() => sim.cameraStats(FRONT)?.openSessions === 0, 10_000);
    const after = await until((p) => p.devices.length === 1);
    assert.deepEqual(
      after.devices.map((d) => d.id),
      [GARDEN],
    );
    await assert.rejects(
      invoke(front, "CameraAvStreamManagement", "captureSnapshot", {
        snapshotStreamId: null,
        requestedResolution: { width: 1, height: 1 },
      }),
      (error: { code?: number }) => {
        assert.equal(error.code, Status.UnsupportedEndpoint, "the controller finds no endpoint there any more");
        return true;
      },
    );
    const back = await configure({ cameras: `${GARDEN}, ${FRONT}` });
    assert.equal(endpointOf(back, FRONT), front, "the same endpoint number as before");
    assert.equal(endpointOf(back, GARDEN), garden);
  });

  it("uses its own haUrl/haToken pair when given one and never returns the token", async () => {
    const info = await configure({ cameras: FRONT, haUrl: sim.url, haToken: TOKEN });
    assert.deepEqual(info.secretsSet, ["haToken"]);
    assert.equal(info.config?.haToken, undefined);
    const listed = JSON.stringify((await call("GET", "/api/plugins")).body);
    assert.ok(!listed.includes(TOKEN));
    const saved = await readFile(join(hub.dataDir, "plugins", bridge.id, "camera", "config.json"), "utf8");
    assert.ok(!saved.includes(TOKEN), "the token is not in the backed-up configuration");
    await eventually(() => sim.connectionCount() >= 2, 10_000);
    const ep = endpointOf(await until((p) => p.devices.length === 1), FRONT) as number;
    await invoke(ep, "CameraAvStreamManagement", "snapshotStreamAllocate", {
      imageCodec: 0,
      maxFrameRate: 1,
      minResolution: { width: 160, height: 120 },
      maxResolution: { width: 1920, height: 1080 },
      quality: 80,
    });
    const snapshot = (await invoke(ep, "CameraAvStreamManagement", "captureSnapshot", {
      snapshotStreamId: null,
      requestedResolution: { width: 160, height: 120 },
    })) as { data: Uint8Array };
    assert.equal(snapshot.data.byteLength, testCameraImage().byteLength);
    assert.ok(!hub.logLines().some((line) => line.includes(TOKEN)), "the token is never logged");
  });
});
