/**
 * The Camera AV Stream Management cluster of a bridged Home Assistant camera (Matter 1.4 §11.2), with the Video,
 * Audio and Snapshot features the Camera device type requires. The bridge encodes nothing itself: video and audio
 * come from Home Assistant's WebRTC server (directly, or forwarded untranscoded by the camera plugin's media relay),
 * snapshots from HA's camera proxy. So the
 * cluster keeps the bookkeeping a controller relies on (stream allocation with reuse of a matching stream, reference
 * counts held by WebRTC sessions, stream priorities) and declares a generic 1080p/30 fps H.264 + Opus + JPEG camera;
 * the real codecs are negotiated in SDP between the controller and HA.
 */
import { Logger } from "@matter/main";
import { CameraAvStreamManagementServer } from "@matter/main/behaviors/camera-av-stream-management";
import { CameraAvStreamManagement } from "@matter/main/clusters/camera-av-stream-management";
import { Status, StatusResponseError, StreamUsage } from "@matter/main/types";
import type { CameraImage, SnapshotSource } from "./camera-backend.ts";
import { jpegSize } from "./jpeg-size.ts";

const logger = Logger.get("CameraSnapshot");
type VideoStream = CameraAvStreamManagement.VideoStream;
type AudioStream = CameraAvStreamManagement.AudioStream;
type SnapshotStream = CameraAvStreamManagement.SnapshotStream;

/** The largest image a CaptureSnapshotResponse can carry inside one 64 000-byte Matter TCP message. */
export const MAX_SNAPSHOT_BYTES = 60_000;
/** Streams of one kind a camera keeps allocated at most. */
const MAX_STREAMS = 4;

const SENSOR = { width: 1920, height: 1080, fps: 30 };

/** The fixed attributes (quality F) of the camera, and empty stream tables. */
export function cameraStreamsState() {
  const full = { width: SENSOR.width, height: SENSOR.height };
  return {
    maxConcurrentEncoders: 1,
    maxEncodedPixelRate: SENSOR.width * SENSOR.height * SENSOR.fps,
    videoSensorParams: { sensorWidth: SENSOR.width, sensorHeight: SENSOR.height, maxFps: SENSOR.fps },
    minViewportResolution: { width: 320, height: 180 },
    rateDistortionTradeOffPoints: [
      { codec: CameraAvStreamManagement.VideoCodec.H264, resolution: { width: 640, height: 360 }, minBitRate: 300_000 },
      { codec: CameraAvStreamManagement.VideoCodec.H264, resolution: full, minBitRate: 2_000_000 },
    ],
    maxContentBufferSize: 4 * 1024 * 1024,
    maxNetworkBandwidth: 20_000_000,
    currentFrameRate: 0,
    supportedStreamUsages: [StreamUsage.LiveView],
    streamUsagePriorities: [StreamUsage.LiveView],
    viewport: { x1: 0, y1: 0, x2: SENSOR.width, y2: SENSOR.height },
    microphoneCapabilities: {
      maxNumberOfChannels: 2,
      supportedCodecs: [CameraAvStreamManagement.AudioCodec.Opus],
      supportedSampleRates: [48_000],
      supportedBitDepths: [16],
    },
    microphoneMuted: false,
    microphoneVolumeLevel: 254,
    microphoneMaxLevel: 254,
    microphoneMinLevel: 0,
    snapshotCapabilities: [
      { resolution: full, maxFrameRate: 1, imageCodec: CameraAvStreamManagement.ImageCodec.Jpeg, requiresEncodedPixels: false },
    ],
  };
}

function refuse(message: string, status: Status): never {
  throw new StatusResponseError(message, status);
}

function nextId(ids: number[]): number {
  return ids.length === 0 ? 1 : Math.max(...ids) + 1;
}

function checkRange(what: string, min: number, max: number): void {
  if (min > max) refuse(`${what}: the minimum exceeds the maximum`, Status.ConstraintError);
}

/** The stream ids a session holds, counted up (+1) or down (-1) in the allocation tables. */
export function countReferences<T extends { referenceCount: number }>(
  streams: readonly T[],
  ids: readonly number[],
  idOf: (stream: T) => number,
  delta: 1 | -1,
): T[] {
  return streams.map((stream) =>
    ids.includes(idOf(stream)) ? { ...stream, referenceCount: Math.max(0, stream.referenceCount + delta) } : stream,
  );
}

/** The server class of one camera: stream bookkeeping plus CaptureSnapshot through `snapshot`. */
export function cameraStreamsServer(snapshot: SnapshotSource) {
  const Base = CameraAvStreamManagementServer.with(
    CameraAvStreamManagement.Feature.Video,
    CameraAvStreamManagement.Feature.Audio,
    CameraAvStreamManagement.Feature.Snapshot,
  );
  return class CameraStreamsServer extends Base {
    override setStreamPriorities({ streamPriorities }: CameraAvStreamManagement.SetStreamPrioritiesRequest) {
      if (new Set(streamPriorities).size !== streamPriorities.length)
        refuse("stream priorities repeat a usage", Status.AlreadyExists);
      for (const usage of streamPriorities) {
        if (!this.state.supportedStreamUsages.includes(usage))
          refuse(`stream usage ${usage} is not supported`, Status.DynamicConstraintError);
      }
      const allocated =
        this.state.allocatedVideoStreams.length +
        this.state.allocatedAudioStreams.length +
        this.state.allocatedSnapshotStreams.length;
      if (allocated > 0) refuse("deallocate the streams before changing priorities", Status.InvalidInState);
      this.state.streamUsagePriorities = [...streamPriorities];
    }

    override videoStreamAllocate(request: CameraAvStreamManagement.VideoStreamAllocateRequest) {
      this.#checkUsage(request.streamUsage);
      if (request.videoCodec !== CameraAvStreamManagement.VideoCodec.H264)
        refuse("only H.264 video streams are offered", Status.DynamicConstraintError);
      checkRange("frame rate", request.minFrameRate, request.maxFrameRate);
      checkRange("bit rate", request.minBitRate, request.maxBitRate);
      checkRange("width", request.minResolution.width, request.maxResolution.width);
      checkRange("height", request.minResolution.height, request.maxResolution.height);
      const streams = this.state.allocatedVideoStreams;
      const same = streams.find((s) => s.streamUsage === request.streamUsage && s.videoCodec === request.videoCodec);
      if (same) return { videoStreamId: same.videoStreamId };
      if (streams.length >= MAX_STREAMS) refuse("no more video streams", Status.ResourceExhausted);
      const videoStreamId = nextId(streams.map((s) => s.videoStreamId));
      const { watermarkEnabled: _w, osdEnabled: _o, ...fields } = request;
      const stream: VideoStream = { ...fields, videoStreamId, referenceCount: 0 };
      this.state.allocatedVideoStreams = [...streams, stream];
      return { videoStreamId };
    }

    override videoStreamDeallocate({ videoStreamId }: CameraAvStreamManagement.VideoStreamDeallocateRequest) {
      this.state.allocatedVideoStreams = this.#release(this.state.allocatedVideoStreams, (s) => s.videoStreamId, videoStreamId);
    }

    override audioStreamAllocate(request: CameraAvStreamManagement.AudioStreamAllocateRequest) {
      this.#checkUsage(request.streamUsage);
      if (request.audioCodec !== CameraAvStreamManagement.AudioCodec.Opus)
        refuse("only Opus audio streams are offered", Status.DynamicConstraintError);
      const streams = this.state.allocatedAudioStreams;
      const same = streams.find((s) => s.streamUsage === request.streamUsage && s.audioCodec === request.audioCodec);
      if (same) return { audioStreamId: same.audioStreamId };
      if (streams.length >= MAX_STREAMS) refuse("no more audio streams", Status.ResourceExhausted);
      const audioStreamId = nextId(streams.map((s) => s.audioStreamId));
      const stream: AudioStream = { ...request, audioStreamId, referenceCount: 0 };
      this.state.allocatedAudioStreams = [...streams, stream];
      return { audioStreamId };
    }

    override audioStreamDeallocate({ audioStreamId }: CameraAvStreamManagement.AudioStreamDeallocateRequest) {
      this.state.allocatedAudioStreams = this.#release(this.state.allocatedAudioStreams, (s) => s.audioStreamId, audioStreamId);
    }

    override snapshotStreamAllocate(request: CameraAvStreamManagement.SnapshotStreamAllocateRequest) {
      if (request.imageCodec !== CameraAvStreamManagement.ImageCodec.Jpeg)
        refuse("only JPEG snapshots are offered", Status.DynamicConstraintError);
      checkRange("width", request.minResolution.width, request.maxResolution.width);
      checkRange("height", request.minResolution.height, request.maxResolution.height);
      const streams = this.state.allocatedSnapshotStreams;
      const same = streams.find((s) => s.imageCodec === request.imageCodec);
      if (same) return { snapshotStreamId: same.snapshotStreamId };
      if (streams.length >= MAX_STREAMS) refuse("no more snapshot streams", Status.ResourceExhausted);
      const snapshotStreamId = nextId(streams.map((s) => s.snapshotStreamId));
      const stream: SnapshotStream = {
        snapshotStreamId,
        imageCodec: request.imageCodec,
        frameRate: request.maxFrameRate,
        minResolution: request.minResolution,
        maxResolution: request.maxResolution,
        quality: request.quality,
        referenceCount: 0,
        encodedPixels: false,
        hardwareEncoder: false,
      };
      this.state.allocatedSnapshotStreams = [...streams, stream];
      return { snapshotStreamId };
    }

    override snapshotStreamDeallocate({ snapshotStreamId }: CameraAvStreamManagement.SnapshotStreamDeallocateRequest) {
      this.state.allocatedSnapshotStreams = this.#release(
        this.state.allocatedSnapshotStreams,
        (s) => s.snapshotStreamId,
        snapshotStreamId,
      );
    }

    /** Fetches HA's current image; the response names the size the JPEG really has. */
    override async captureSnapshot({ snapshotStreamId, requestedResolution }: CameraAvStreamManagement.CaptureSnapshotRequest) {
      // A copy: indexing past the end of matter.js's managed list throws instead of giving undefined.
      const streams = [...this.state.allocatedSnapshotStreams];
      const stream = snapshotStreamId === null ? streams[0] : streams.find((s) => s.snapshotStreamId === snapshotStreamId);
      if (!stream) refuse(`no allocated snapshot stream ${snapshotStreamId ?? ""}`.trim(), Status.NotFound);
      let image: CameraImage;
      try {
        image = await snapshot({ width: requestedResolution.width, height: requestedResolution.height });
      } catch (error) {
        logger.warn(`camera ${this.endpoint.id}: no snapshot: ${(error as Error).message}`);
        refuse(`Home Assistant gave no image: ${(error as Error).message}`, Status.Failure);
      }
      if (image.data.byteLength > MAX_SNAPSHOT_BYTES)
        refuse(`the image has ${image.data.byteLength} bytes, more than one Matter message carries`, Status.ResourceExhausted);
      const size = jpegSize(image.data);
      if (!size) refuse("Home Assistant's image is not a JPEG", Status.Failure);
      return { data: image.data, imageCodec: CameraAvStreamManagement.ImageCodec.Jpeg, resolution: size };
    }

    #checkUsage(usage: StreamUsage): void {
      if (!this.state.supportedStreamUsages.includes(usage))
        refuse(`stream usage ${usage} is not supported`, Status.DynamicConstraintError);
    }

    #release<T extends { referenceCount: number }>(streams: T[], idOf: (stream: T) => number, id: number): T[] {
      const stream = streams.find((s) => idOf(s) === id);
      if (!stream) refuse(`no allocated stream ${id}`, Status.NotFound);
      if (stream.referenceCount > 0) refuse(`stream ${id} is in use by a WebRTC session`, Status.InvalidInState);
      return streams.filter((s) => s !== stream);
    }
  };
}

export type CameraStreamsServerType = ReturnType<typeof cameraStreamsServer>;
