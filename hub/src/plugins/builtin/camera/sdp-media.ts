/**
 * The few SDP and RTP facts the media relay needs, read and written as text: which codec an answer accepted for a
 * kind of media (the downstream offer mirrors the codec Home Assistant sends, since packets pass through without
 * transcoding), candidates put into an offer whose gathering ran out of time, and the payload type a forwarded
 * packet carries on the other side (each side numbers its codecs itself).
 */
import type { IceCandidate } from "../../builtin-services.ts";

/** A codec as an SDP media section declares it. */
export interface SdpCodec {
  payloadType: number;
  /** `video/H264`, `audio/opus`. */
  mimeType: string;
  clockRate: number;
  channels?: number;
  /** The `a=fmtp` parameters, e.g. `packetization-mode=1;profile-level-id=42e01f`. */
  parameters?: string;
}

/** Codecs that only carry another codec's packets (retransmission, redundancy, error correction). */
const AUXILIARY = new Set(["rtx", "red", "ulpfec", "flexfec-03"]);

/** The media sections of an SDP, each as its lines (the first is the `m=` line). */
function sections(sdp: string): string[][] {
  const result: string[][] = [];
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith("m=")) result.push([line]);
    else if (line !== "") result.at(-1)?.push(line);
  }
  return result;
}

/**
 * The codec an SDP (an answer) accepted for `kind`: the first primary codec of the first media section of that
 * kind that is not rejected (port 0) or inactive. Undefined when there is none.
 */
export function acceptedCodec(sdp: string, kind: "audio" | "video"): SdpCodec | undefined {
  for (const lines of sections(sdp)) {
    const [media, port, , ...formats] = (lines[0] as string).slice(2).split(" ");
    if (media !== kind || port === "0" || lines.includes("a=inactive")) continue;
    for (const format of formats) {
      const rtpmap = lines.find((line) => line.startsWith(`a=rtpmap:${format} `));
      if (!rtpmap) continue;
      const [name = "", clock = "", channels] = rtpmap.slice(rtpmap.indexOf(" ") + 1).split("/");
      if (AUXILIARY.has(name.toLowerCase())) continue;
      const fmtp = lines.find((line) => line.startsWith(`a=fmtp:${format} `));
      return {
        payloadType: Number(format),
        mimeType: `${kind}/${name}`,
        clockRate: Number(clock),
        ...(channels !== undefined && { channels: Number(channels) }),
        ...(fmtp !== undefined && { parameters: fmtp.slice(fmtp.indexOf(" ") + 1) }),
      };
    }
  }
  return undefined;
}

/**
 * Adds candidates to the media sections they belong to (by `sdpMid`, else by `sdpMLineIndex`), after the
 * section's last line: an offer sent before its gathering completed still carries what was found by then.
 */
export function withCandidates(sdp: string, candidates: readonly IceCandidate[]): string {
  const eol = sdp.includes("\r\n") ? "\r\n" : "\n";
  const lines = sdp.split(/\r?\n/).filter((line) => line !== "");
  const starts = lines.flatMap((line, index) => (line.startsWith("m=") ? [index] : []));
  const additions = new Map<number, string[]>();
  for (const { candidate, sdpMid, sdpMLineIndex } of candidates) {
    if (candidate.trim() === "") continue;
    let section = sdpMid === null ? -1 : starts.findIndex((start, i) => sectionHasMid(lines, start, starts[i + 1], sdpMid));
    if (section < 0 && sdpMLineIndex !== null && sdpMLineIndex < starts.length) section = sdpMLineIndex;
    if (section < 0) continue;
    const line = `a=${candidate.replace(/^a=/, "")}`;
    const end = (starts[section + 1] ?? lines.length) - 1;
    if (lines.includes(line) || additions.get(end)?.includes(line)) continue;
    additions.set(end, [...(additions.get(end) ?? []), line]);
  }
  const out = lines.flatMap((line, index) => [line, ...(additions.get(index) ?? [])]);
  return out.join(eol) + eol;
}

function sectionHasMid(lines: string[], start: number, next: number | undefined, mid: string): boolean {
  return lines.slice(start, next ?? lines.length).includes(`a=mid:${mid}`);
}

/** Where a forwarded stream's packets come from and go to, by payload type. */
export interface PayloadTypeMap {
  /** The payload type Home Assistant's side sends the codec with. */
  from: number;
  /** The payload type the controller's answer gave the same codec. */
  to: number;
}

/**
 * Rewrites a forwarded packet's payload type in place; false for a packet of another payload type (a
 * retransmission or error-correction stream of the other side), which is not forwarded: the controller's side
 * never negotiated it and would take it for the codec.
 */
export function rewritePayloadType(header: { payloadType: number }, map: PayloadTypeMap): boolean {
  if (header.payloadType !== map.from) return false;
  header.payloadType = map.to;
  return true;
}
