import { EndpointNumber, type NodeId, VendorId } from "@matter/main";
import { WebRtcTransportRequestorServer } from "@matter/main/behaviors/web-rtc-transport-requestor";
import type { WebRtcTransportRequestor } from "@matter/main/clusters/web-rtc-transport-requestor";
import { CameraControllerDevice } from "@matter/main/devices/camera-controller";
import { Invoke } from "@matter/main/protocol";
import { Status, StatusResponseError, StreamUsage } from "@matter/main/types";
import { CommissioningController } from "@project-chip/matter.js";
import type { Logger } from "../../../lib/logger.ts";
import { assertNetworkIsolated } from "../../../lib/testing/isolation.ts";
import { createMatterEnvironment, type MatterEnvironment } from "../../src/matter/matter-environment.ts";
import { resolveCluster, resolveCommand } from "./matter-clusters.ts";
import { commissionAt } from "./matter-controller.ts";
import { silentLogger } from "./matter-fixtures.ts";

/** The endpoint of the controller's WebRtcTransportRequestor server (the OriginatingEndpointID of its offers). */
export const REQUESTOR_ENDPOINT = 1;

/** What the controller's requestor received from the camera, per WebRTC session id. */
export interface RequestorInbox {
  /** The camera's offers (sessions the controller solicited). */
  offers: string[];
  answers: string[];
  candidates: { candidate: string; sdpMid: string | null; sdpmLineIndex: number | null }[];
  ends: number[];
}

/**
 * A matter.js controller acting as WebRTC requestor, as a camera-capable ecosystem does: Matter over TCP (the
 * WebRTC commands are large messages), and a CameraController endpoint hosting the WebRtcTransportRequestor server,
 * where the camera's Offer, Answer, ICECandidates and End commands arrive. matter.js's requestor server accepts them
 * only for sessions registered with `upsertSession`, which {@link registerSession} does with the ProvideOffer or
 * SolicitOffer response.
 */
export class CameraController {
  readonly inbox = new Map<number, RequestorInbox>();
  readonly #matter: MatterEnvironment;
  readonly #controller: CommissioningController;

  private constructor(matter: MatterEnvironment, controller: CommissioningController) {
    this.#matter = matter;
    this.#controller = controller;
  }

  static async start(options: { storagePath: string; localPort: number; fabricLabel: string; log?: Logger }) {
    assertNetworkIsolated();
    const matter = createMatterEnvironment({
      storagePath: options.storagePath,
      log: options.log ?? silentLogger(),
      mdnsInterface: "lo",
    });
    const controller = new CommissioningController({
      environment: { environment: matter.environment, id: "camera-controller" },
      autoConnect: false,
      adminFabricLabel: options.fabricLabel,
      localPort: options.localPort,
      adminVendorId: VendorId(0xfff1),
      tcp: true,
      basicInformation: {
        vendorName: "Matter Hub tests",
        productId: 0x8002,
        productName: "Camera test controller",
        hardwareVersion: 1,
        softwareVersion: 1,
      },
    });
    try {
      await controller.start();
      const self = new CameraController(matter, controller);
      const box = (id: number) => self.#box(id);
      // Records in the command handlers themselves: matter.js's `end` event hands out a session entry already removed
      // from the managed state, which cannot be read any more.
      class RecordingRequestorServer extends WebRtcTransportRequestorServer {
        override async offer(request: WebRtcTransportRequestor.OfferRequest) {
          await super.offer(request);
          box(request.webRtcSessionId).offers.push(request.sdp);
        }
        override async answer(request: WebRtcTransportRequestor.AnswerRequest) {
          await super.answer(request);
          box(request.webRtcSessionId).answers.push(request.sdp);
        }
        override async iceCandidates(request: WebRtcTransportRequestor.IceCandidatesRequest) {
          await super.iceCandidates(request);
          box(request.webRtcSessionId).candidates.push(...request.iceCandidates.map((c) => ({ ...c })));
        }
        override async end(request: WebRtcTransportRequestor.EndRequest) {
          await super.end(request);
          box(request.webRtcSessionId).ends.push(request.reason);
        }
      }
      await controller.node.add(CameraControllerDevice.with(RecordingRequestorServer), {
        id: "webrtc-requestor",
        number: EndpointNumber(REQUESTOR_ENDPOINT),
      });
      return self;
    } catch (error) {
      await controller.close().catch(() => undefined);
      await matter.close();
      throw error;
    }
  }

  async commission(manualCode: string, address: { ip: string; port: number }): Promise<NodeId> {
    return commissionAt(this.#controller, manualCode, address);
  }

  /**
   * Invokes a command on the node through its ClientNode (large-message commands go over TCP); resolves with the
   * response fields, rejects with the status.
   */
  async invoke(nodeId: NodeId, endpoint: number, cluster: string, command: string, fields?: object): Promise<unknown> {
    const type = resolveCluster(cluster);
    resolveCommand(type, command);
    const peer = this.#controller.node.peers.get(this.#controller.fabric.addressOf(nodeId));
    if (!peer) throw new Error(`node ${nodeId} is not commissioned by this controller`);
    const request = Invoke({
      commands: [Invoke.ConcreteCommandRequest({ endpoint: EndpointNumber(endpoint), cluster: type, command, fields } as never)],
    });
    for await (const chunk of peer.interaction.invoke(request)) {
      for (const entry of chunk) {
        if (entry.kind === "cmd-status") {
          if (entry.status !== Status.Success) throw StatusResponseError.create(entry.status, undefined, entry.clusterStatus);
          return undefined;
        }
        if (entry.kind === "cmd-response") return entry.data;
      }
    }
    return undefined;
  }

  /** What a controller does with a ProvideOffer or SolicitOffer response: remember the session so the camera may signal on it. */
  async registerSession(nodeId: NodeId, session: { id: number; cameraEndpoint: number; video?: number[]; audio?: number[] }) {
    const requestor = this.#controller.node.endpoints.for("webrtc-requestor");
    await requestor.act((agent) =>
      agent.get(WebRtcTransportRequestorServer).upsertSession({
        id: session.id,
        peerNodeId: nodeId,
        peerEndpointId: EndpointNumber(session.cameraEndpoint),
        streamUsage: StreamUsage.LiveView,
        metadataEnabled: false,
        videoStreams: session.video,
        audioStreams: session.audio,
        fabricIndex: this.#controller.fabric.fabricIndex,
      }),
    );
    this.#box(session.id);
  }

  #box(id: number): RequestorInbox {
    let box = this.inbox.get(id);
    if (!box) {
      box = { offers: [], answers: [], candidates: [], ends: [] };
      this.inbox.set(id, box);
    }
    return box;
  }

  async close(): Promise<void> {
    try {
      await this.#controller.close();
    } finally {
      await this.#matter.close();
    }
  }
}
