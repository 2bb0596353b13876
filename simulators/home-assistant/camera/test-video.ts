/**
 * A generated H.264 test video for the simulated cameras, without an encoder: every frame is an IDR picture of
 * I_PCM macroblocks (ITU H.264 §7.3.5: raw samples, valid Constrained Baseline), a 64×48 picture whose grey level
 * and colour change with the frame number. It is packetised for RTP as RFC 6184 does it (single NAL units, FU-A
 * fragments for NAL units above the payload limit), so a WebRTC receiver gets real H.264 RTP packets: what a
 * camera streamed through Home Assistant's WebRTC server would send.
 */
const WIDTH = 64;
const HEIGHT = 48;
/** Payload bytes per RTP packet (keeps packets under a 1200-byte path MTU). */
const MAX_PAYLOAD = 1100;
export const TEST_VIDEO = { width: WIDTH, height: HEIGHT, fps: 10, clockRate: 90_000 } as const;
/** SDP fmtp of the stream: Constrained Baseline level 3.1, non-interleaved (FU-A) packetisation. */
export const TEST_VIDEO_FMTP = "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f";

class BitWriter {
  readonly #bytes: number[] = [];
  #current = 0;
  #bits = 0;

  bit(value: number): void {
    this.#current = (this.#current << 1) | (value & 1);
    if (++this.#bits === 8) {
      this.#bytes.push(this.#current);
      this.#current = 0;
      this.#bits = 0;
    }
  }

  bits(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bit((value >> i) & 1);
  }

  /** Unsigned Exp-Golomb (ue(v)). */
  ue(value: number): void {
    const coded = value + 1;
    const length = Math.floor(Math.log2(coded));
    this.bits(0, length);
    this.bits(coded, length + 1);
  }

  /** Signed Exp-Golomb (se(v)). */
  se(value: number): void {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }

  alignZero(): void {
    while (this.#bits !== 0) this.bit(0);
  }

  /** rbsp_trailing_bits: a stop bit, then zeros to the byte boundary. */
  trailing(): Uint8Array {
    this.bit(1);
    this.alignZero();
    return Uint8Array.from(this.#bytes);
  }
}

/** A NAL unit from its header byte and RBSP, with emulation prevention bytes inserted (§7.4.1). */
function nal(header: number, rbsp: Uint8Array): Uint8Array {
  const out: number[] = [header];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

function sps(): Uint8Array {
  const w = new BitWriter();
  w.bits(66, 8); // profile_idc: Baseline
  w.bits(0xe0, 8); // constraint_set0..2: Constrained Baseline
  w.bits(31, 8); // level_idc 3.1
  w.ue(0); // seq_parameter_set_id
  w.ue(0); // log2_max_frame_num_minus4
  w.ue(2); // pic_order_cnt_type (display order = decoding order)
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(WIDTH / 16 - 1);
  w.ue(HEIGHT / 16 - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  w.bit(0); // frame_cropping_flag
  w.bit(0); // vui_parameters_present_flag
  return nal(0x67, w.trailing());
}

function pps(): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.bit(0); // entropy_coding_mode_flag: CAVLC
  w.bit(0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.bit(0); // weighted_pred_flag
  w.bits(0, 2); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.bit(1); // deblocking_filter_control_present_flag
  w.bit(0); // constrained_intra_pred_flag
  w.bit(0); // redundant_pic_cnt_present_flag
  return nal(0x68, w.trailing());
}

/** An IDR slice of I_PCM macroblocks; samples stay within video range (16…240), which also avoids start codes. */
function idr(frame: number): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I (all slices of the picture)
  w.ue(0); // pic_parameter_set_id
  w.bits(0, 4); // frame_num (an IDR picture has 0)
  w.ue(frame % 2); // idr_pic_id: consecutive IDR pictures differ
  w.bit(0); // no_output_of_prior_pics_flag
  w.bit(0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off (PCM needs none)
  const luma = 16 + ((frame * 7) % 200);
  const blue = 16 + ((frame * 13) % 224);
  const red = 240 - ((frame * 5) % 224);
  for (let mb = 0; mb < (WIDTH / 16) * (HEIGHT / 16); mb++) {
    w.ue(25); // mb_type I_PCM
    w.alignZero(); // pcm_alignment_zero_bit
    for (let i = 0; i < 256; i++) w.bits(Math.min(240, luma + (mb % 4) * 4), 8);
    for (let i = 0; i < 64; i++) w.bits(blue, 8);
    for (let i = 0; i < 64; i++) w.bits(red, 8);
  }
  return nal(0x65, w.trailing());
}

/** One RTP payload of a frame; `marker` is set on the frame's last packet. */
export interface VideoPayload {
  payload: Uint8Array;
  marker: boolean;
}

/** RFC 6184 packetisation of one NAL unit: as is when it fits, else FU-A fragments. */
function packetize(unit: Uint8Array): Uint8Array[] {
  if (unit.length <= MAX_PAYLOAD) return [unit];
  const header = unit[0] as number;
  const indicator = (header & 0xe0) | 28;
  const type = header & 0x1f;
  const packets: Uint8Array[] = [];
  for (let offset = 1; offset < unit.length; offset += MAX_PAYLOAD - 2) {
    const chunk = unit.subarray(offset, Math.min(unit.length, offset + MAX_PAYLOAD - 2));
    const start = offset === 1 ? 0x80 : 0;
    const end = offset + chunk.length >= unit.length ? 0x40 : 0;
    packets.push(Uint8Array.from([indicator, start | end | type, ...chunk]));
  }
  return packets;
}

/** The RTP payloads of frame `frame` (SPS and PPS precede every IDR, so a receiver can start anywhere). */
export function videoFrame(frame: number): VideoPayload[] {
  const payloads = [sps(), pps(), idr(frame)].flatMap(packetize);
  return payloads.map((payload, index) => ({ payload, marker: index === payloads.length - 1 }));
}

/** The Annex B byte stream of frame `frame` (start codes before each NAL unit), e.g. to check it with a decoder. */
export function annexBFrame(frame: number): Uint8Array {
  const units = [sps(), pps(), idr(frame)];
  return Uint8Array.from(units.flatMap((unit) => [0, 0, 0, 1, ...unit]));
}
