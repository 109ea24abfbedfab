import { BitWriter } from './bit-writer.js';

/**
 * A minimal H.264 encoder: Baseline profile, every frame an IDR picture whose macroblocks are
 * all I_PCM (raw samples, no prediction or transform). Large per pixel, but exact and simple,
 * and every browser decoder plays it. Frame size must be a multiple of 16.
 */
export interface YuvFrame {
  /** width × height luma samples (1..255), row-major. */
  y: Uint8Array;
  /** (width/2) × (height/2) chroma samples each (4:2:0). */
  u: Uint8Array;
  v: Uint8Array;
}

const NAL_SPS = 7;
const NAL_PPS = 8;
const NAL_IDR = 5;
const I_PCM = 25;
const PROFILE_BASELINE = 66;
export const LEVEL = 10;

export function sequenceParameterSet(width: number, height: number): Uint8Array {
  const w = new BitWriter()
    .bits(PROFILE_BASELINE, 8)
    .bits(0xc0, 8)
    .bits(LEVEL, 8) // constraint_set0/1: plain Baseline
    .ue(0) // seq_parameter_set_id
    .ue(0) // log2_max_frame_num_minus4
    .ue(2) // pic_order_cnt_type 2: output order = decode order
    .ue(0) // max_num_ref_frames (intra only)
    .flag(false) // gaps_in_frame_num_value_allowed
    .ue(width / 16 - 1)
    .ue(height / 16 - 1)
    .flag(true) // frame_mbs_only
    .flag(true) // direct_8x8_inference
    .flag(false) // frame_cropping
    .flag(false); // vui_parameters_present
  return nalUnit(NAL_SPS, w.finish());
}

export function pictureParameterSet(): Uint8Array {
  const w = new BitWriter()
    .ue(0)
    .ue(0) // pps id, sps id
    .flag(false) // CAVLC
    .flag(false) // bottom_field_pic_order_in_frame_present
    .ue(0) // num_slice_groups_minus1
    .ue(0)
    .ue(0) // num_ref_idx_l0/l1_default_active_minus1
    .flag(false)
    .bits(0, 2) // weighted prediction off
    .se(0)
    .se(0)
    .se(0) // pic_init_qp/qs, chroma_qp_index_offset
    .flag(true) // deblocking_filter_control_present: lets slices turn the filter off
    .flag(false)
    .flag(false); // constrained_intra_pred, redundant_pic_cnt_present
  return nalUnit(NAL_PPS, w.finish());
}

/** One IDR slice covering the frame; `idrPicId` must differ between consecutive IDR pictures. */
export function idrSlice(frame: YuvFrame, width: number, height: number, idrPicId: number): Uint8Array {
  const w = new BitWriter()
    .ue(0) // first_mb_in_slice
    .ue(7) // slice_type: I (all slices of the picture)
    .ue(0) // pps id
    .bits(0, 4) // frame_num (IDR)
    .ue(idrPicId)
    .flag(false)
    .flag(false) // no_output_of_prior_pics, long_term_reference
    .se(0) // slice_qp_delta
    .ue(1); // disable_deblocking_filter_idc: PCM samples are shown as stored
  for (let my = 0; my < height / 16; my++) {
    for (let mx = 0; mx < width / 16; mx++) {
      w.ue(I_PCM).alignWithZeros();
      for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) w.byte(frame.y[(my * 16 + y) * width + mx * 16 + x]!);
      for (const plane of [frame.u, frame.v]) {
        for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) w.byte(plane[(my * 8 + y) * (width / 2) + mx * 8 + x]!);
      }
    }
  }
  return nalUnit(NAL_IDR, w.finish());
}

/** NAL header (nal_ref_idc 3) plus the payload with emulation-prevention bytes inserted. */
export function nalUnit(type: number, rbsp: Uint8Array): Uint8Array {
  const out = [(3 << 5) | type];
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
