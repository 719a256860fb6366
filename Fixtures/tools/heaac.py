#!/usr/bin/env python3
"""Spec-built HE-AAC (implicit signalling) from real AAC-LC ADTS frames.

No encoder in Debian main writes HE-AAC, so this script adds SBR to the output of ffmpeg's
native AAC-LC encoder: before the END element of every raw data block it inserts a fill
element (ID_FIL) whose extension_payload is EXT_SBR_DATA (13) with a hand-built
sbr_extension_data() (ISO/IEC 14496-3 §4.4.2.8), and it fixes aac_frame_length. The AAC-LC
data itself is unchanged, and the ADTS header still says AAC-LC at the core rate: the
signalling is implicit (§1.6.5: SBR found only in the raw data blocks).

  sbr IN OUT [--ps]
      IN: single-block ADTS frames without CRC (a channel element then END in each block).
      --ps: the core must be one SCE; sbr_data() then carries an sbr_extension with
      bs_extension_id EXTENSION_ID_PS (2) and a minimal ps_data() (HE-AAC v2).

The SBR payload, the same in every frame (bits, most significant first):

  fill element:   id_syn_ele 3 = 6, count 4 (bytes of payload)
  extension_type  4 = 13 (EXT_SBR_DATA)
  bs_header_flag  1 = 1
  sbr_header():   bs_amp_res 1 = 1, bs_start_freq 4 = 10, bs_stop_freq 4 = 0,
                  bs_xover_band 3 = 0, bs_reserved 2 = 0, bs_header_extra_1 1 = 1,
                  bs_header_extra_2 1 = 0, bs_freq_scale 2 = 0 (linear), bs_alter_scale 1 = 1,
                  bs_noise_bands 2 = 0
      At 44.1 kHz output (§4.6.18.3.2): k0 = startMin 12 + offset 7 (bs_start_freq 10) = 19,
      k2 = stopMin 23 (bs_stop_freq 0); linear bands with alter scale: dk = 2,
      numBands = 2 * NINT((k2 - k0) / 4) = 2, f_master = 19 21 23, so N_high = 2, N_low = 1,
      kx = 19, M = 4, N_Q = max(1, NINT(0 * log2(k2 / kx))) = 1: every envelope and noise
      floor is its start value alone, no Huffman codeword is needed.
  per channel (SCE: one; CPE: bs_data_extra 1 = 0, bs_coupling 1 = 0, then each item for
  channel 0 and channel 1 in the order grid, dtdf, invf, envelope, noise; SCE: bs_data_extra 1 = 0):
    sbr_grid():     bs_frame_class 2 = 0 (FIXFIX), tmp 2 = 0 (1 envelope), bs_freq_res 1 = 0
    sbr_dtdf():     bs_df_env 1 = 0, bs_df_noise 1 = 0
    sbr_invf():     bs_invf_mode 2 = 0 (N_Q = 1)
    sbr_envelope(): bs_env_start_value_level 7 = 40 (amp_res forced to 1.5 dB: FIXFIX, 1 envelope)
    sbr_noise():    bs_noise_start_value_level 5 = 10
  bs_add_harmonic_flag 1 = 0 (per channel)
  bs_extended_data 1 = 0, or with --ps 1: bs_extension_size 4 = 2 (bytes), then
    bs_extension_id 2 = 2 (EXTENSION_ID_PS), ps_data(): enable_ps_header 1 = 1, enable_iid 1 = 0,
    enable_icc 1 = 0, enable_ext 1 = 0, frame_class 1 = 0, num_env_idx 2 = 1, then 7 fill bits
  zero bits up to the fill element's byte count
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adts import frames, set_header  # noqa: E402


class Bits:
    def __init__(self):
        self.bits = []

    def put(self, value, width):
        for i in range(width - 1, -1, -1):
            self.bits.append((value >> i) & 1)


def sbr_payload(channels, ps):
    """extension_payload() bits (extension_type first), padded to whole bytes."""
    b = Bits()
    b.put(13, 4)  # EXT_SBR_DATA
    b.put(1, 1)  # bs_header_flag
    for value, width in [(1, 1), (10, 4), (0, 4), (0, 3), (0, 2), (1, 1), (0, 1), (0, 2), (1, 1), (0, 2)]:
        b.put(value, width)
    if channels == 2:
        b.put(0, 1)  # bs_data_extra
        b.put(0, 1)  # bs_coupling
        for _ in range(2):
            b.put(0, 2), b.put(0, 2), b.put(0, 1)  # sbr_grid
        for _ in range(2):
            b.put(0, 1), b.put(0, 1)  # sbr_dtdf
        for _ in range(2):
            b.put(0, 2)  # sbr_invf
        for _ in range(2):
            b.put(40, 7)  # sbr_envelope
        for _ in range(2):
            b.put(10, 5)  # sbr_noise
        b.put(0, 1), b.put(0, 1)  # bs_add_harmonic_flag
    else:
        b.put(0, 1)  # bs_data_extra
        b.put(0, 2), b.put(0, 2), b.put(0, 1)  # sbr_grid
        b.put(0, 1), b.put(0, 1)  # sbr_dtdf
        b.put(0, 2)  # sbr_invf
        b.put(40, 7)  # sbr_envelope
        b.put(10, 5)  # sbr_noise
        b.put(0, 1)  # bs_add_harmonic_flag
    if ps:
        b.put(1, 1)  # bs_extended_data
        b.put(2, 4)  # bs_extension_size (bytes)
        b.put(2, 2)  # bs_extension_id = EXTENSION_ID_PS
        for value, width in [(1, 1), (0, 1), (0, 1), (0, 1), (0, 1), (1, 2)]:
            b.put(value, width)  # ps_data()
        b.put(0, 7)  # the rest of the 16 extension bits
    else:
        b.put(0, 1)  # bs_extended_data
    while len(b.bits) % 8:
        b.put(0, 1)
    return b.bits


def to_bits(data):
    return [(byte >> (7 - i)) & 1 for byte in data for i in range(8)]


def to_bytes(bits):
    bits = bits + [0] * (-len(bits) % 8)
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def with_sbr(block, channels, ps):
    """The raw data block with a fill element before END. END is the last 3 bits up to the
    block's last set bit: byte_alignment() after it writes zeros (ffmpeg does)."""
    bits = to_bits(block)
    last = max(i for i, bit in enumerate(bits) if bit)
    end = last - 2
    if bits[end:last + 1] != [1, 1, 1]:
        raise SystemExit("no END element at the end of a block")
    payload = sbr_payload(channels, ps)
    count = len(payload) // 8
    fill = Bits()
    fill.put(6, 3)  # ID_FIL
    if count < 15:
        fill.put(count, 4)
    else:
        fill.put(15, 4)
        fill.put(count - 14, 8)  # esc_count: count = 15 + esc_count - 1
    return to_bytes(bits[:end] + fill.bits + payload + [1, 1, 1])


def cmd_sbr(a):
    buf = open(a.input, "rb").read()
    out = bytearray()
    for off, length, hl, pa, rdb in frames(buf):
        if rdb != 1 or not pa:
            raise SystemExit("single-block frames without CRC only")
        header = buf[off:off + 7]
        channels = 1 if (header[2] & 1) << 2 | header[3] >> 6 == 1 else 2
        if a.ps and channels != 1:
            raise SystemExit("--ps needs a mono core")
        block = with_sbr(buf[off + hl:off + length], channels, a.ps)
        out += set_header(header, 1, 7 + len(block), 1) + block
    open(a.output, "wb").write(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sbr")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--ps", action="store_true")
    s.set_defaults(func=cmd_sbr)
    a = p.parse_args()
    a.func(a)


if __name__ == "__main__":
    main()
