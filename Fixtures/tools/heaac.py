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
      --multiband: the SBR payload of MULTIBAND below instead (several bands, logarithmic
      frequency scale, several envelopes, Huffman-coded deltas in time and frequency); without
      it the output is the single-band payload below, byte for byte as before.

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

MULTIBAND (--multiband), the same in every frame. Band tables from ISO/IEC 14496-3 §4.6.18.3.2
at 44100 Hz output, computed by sbr_tables() below (startMin 12, stopMin 23):

  mono core (SCE):
    sbr_header(): bs_amp_res 1 (3.0 dB), bs_start_freq 5, bs_stop_freq 9, bs_xover_band 1,
        bs_reserved 0, bs_header_extra_1 1, bs_header_extra_2 1, bs_freq_scale 2 (10 bands per
        octave), bs_alter_scale 1, bs_noise_bands 2, bs_limiter_bands 2, bs_limiter_gains 2,
        bs_interpol_freq 1, bs_smoothing_mode 1
      k0 = 12 + 2 = 14, k2 = 23 + (2+2+2+2+3+3+3+3+4) = 47 (sorted stopDk 2 2 2 2 3 3 3 3 4 4 4 4 5);
      k2/k0 > 2.2449: two regions, k1 = 28; 10 bands 14…28, 6 bands 28…47 (warp 1.3); f_master =
      14 15 16 17 18 19 20 22 24 26 28 30 33 36 39 43 47: N_master 16, N_high 15, N_low 8,
      kx 15, M 32, N_Q = NINT(2 log2(47/15)) = 3
    bs_data_extra 0
    sbr_grid(): without --ps VARFIX: bs_frame_class 2, bs_var_bord_0 0, bs_num_rel_0 2,
        bs_rel_bord_0 0 and 1 (2 and 4 slots), bs_pointer 2 bits 0, bs_freq_res 0 1 1
        (borders 0 2 6 16: 3 envelopes, 2 noise floors)
      with --ps FIXVAR: bs_frame_class 1, bs_var_bord_1 0, bs_num_rel_1 1, bs_rel_bord_1 1
        (4 slots), bs_pointer 2 bits 0, bs_freq_res 1 0 (written last envelope first: envelope 0
        low, envelope 1 high resolution; borders 0 12 16: 2 envelopes, 2 noise floors)
      bs_amp_res stays 1: not FIXFIX with one envelope
    sbr_dtdf(): bs_df_env 0 then 1 for every further envelope, bs_df_noise 1 0
    sbr_invf(): bs_invf_mode 1 2 0
    sbr_envelope(): envelope 0 in frequency over N_low: bs_env_start_value_level 6 bits = 20,
        then N_low - 1 codewords of f_huffman_env_3_0dB alternating +1 (index 32: 110) and -1
        (index 30: 10); every further envelope in time over N_high: t_huffman_env_3_0dB
        alternating 0 (index 31: 0) and -1 (index 30: 10)
    sbr_noise(): noise floor 0 in time over N_Q: t_huffman_noise_3_0dB +1 0 +1 (index 32: 10,
        index 31: 0); noise floor 1 in frequency: bs_noise_start_value_level 5 bits = 10, then
        f_huffman_env_3_0dB -1 +1 (10, 110)
    bs_add_harmonic_flag 1, bs_add_harmonic 1 then 0 for the other N_high - 1 bands
    bs_extended_data as for the single-band payload (0, or the PS extension with --ps)
  stereo core (CPE), coupled:
    sbr_header(): bs_amp_res 0 (1.5 dB), bs_start_freq 5, bs_stop_freq 9, bs_xover_band 0,
        bs_reserved 0, bs_header_extra_1 1, bs_header_extra_2 0, bs_freq_scale 1 (12 bands per
        octave), bs_alter_scale 0, bs_noise_bands 1
      k0 14, k2 47, k1 28; 12 bands 14…28, 8 bands 28…47: N_high 20, N_low 10, kx 14, M 33,
      N_Q = NINT(log2(47/14)) = 2
    bs_data_extra 0, bs_coupling 1
    sbr_grid(0) (channel 1 shares it): FIXFIX, tmp 1 (2 envelopes), bs_freq_res 1
    sbr_dtdf(0): bs_df_env 0 1, bs_df_noise 0 1; sbr_dtdf(1): bs_df_env 0 0, bs_df_noise 0 1
    sbr_invf(0): bs_invf_mode 2 1 (shared)
    sbr_envelope(0): envelope 0 in frequency: bs_env_start_value_level 7 bits = 40, then
        f_huffman_env_1_5dB alternating +1 (index 61: 100) and -1 (index 59: 01); envelope 1 in
        time: t_huffman_env_1_5dB 0 (index 60: 00) per band
    sbr_noise(0): floor 0 in frequency: 5 bits = 10, then f_huffman_env_3_0dB 0 (0); floor 1 in
        time: t_huffman_noise_3_0dB 0 (0) per band
    sbr_envelope(1), balance: both envelopes in frequency: bs_env_start_value_balance 6 bits
        = 24, then f_huffman_env_bal_1_5dB alternating +1 (index 25: 110) and -1 (index 23: 10)
        (envelope 0), 0 (index 24: 0) (envelope 1)
    sbr_noise(1), balance: floor 0 in frequency: bs_noise_start_value_balance 5 bits = 12, then
        f_huffman_env_bal_3_0dB 0 (index 12: 0); floor 1 in time: t_huffman_noise_bal_3_0dB
        0 +1 (index 12: 0, index 13: 110)
    bs_add_harmonic_flag 0 0, bs_extended_data 0
"""

import argparse
import math
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
    extended_data(b, ps)
    while len(b.bits) % 8:
        b.put(0, 1)
    return b.bits


def extended_data(b, ps):
    """bs_extended_data: 0, or with ps the PS extension (bs_extension_size 2 bytes)."""
    if ps:
        b.put(1, 1)  # bs_extended_data
        b.put(2, 4)  # bs_extension_size (bytes)
        b.put(2, 2)  # bs_extension_id = EXTENSION_ID_PS
        for value, width in [(1, 1), (0, 1), (0, 1), (0, 1), (0, 1), (1, 2)]:
            b.put(value, width)  # ps_data()
        b.put(0, 7)  # the rest of the 16 extension bits
    else:
        b.put(0, 1)  # bs_extended_data


def nint(x):
    return int(math.floor(x + 0.5))


START_OFFSET_44100 = [-4, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 16, 20]


def band_widths(a, b, n):
    return [nint(a * (b / a) ** ((k + 1) / n)) - nint(a * (b / a) ** (k / n)) for k in range(n)]


def sbr_tables(start, stop, xover, scale, alter, noise):
    """N_high, N_low, N_Q at 44100 Hz output (§4.6.18.3.2), for bs_freq_scale > 0 and
    bs_stop_freq < 14 (what MULTIBAND uses)."""
    k0 = nint(4000 * 128 / 44100) + START_OFFSET_44100[start]
    stop_min = nint(8000 * 128 / 44100)
    k2 = min(64, stop_min + sum(sorted(band_widths(stop_min, 64, 13))[:stop]))
    bands = [12, 10, 8][scale - 1]
    two = k2 / k0 > 2.2449
    k1 = 2 * k0 if two else k2
    v0 = sorted(band_widths(k0, k1, 2 * nint(bands * math.log2(k1 / k0) / 2)))
    master = [k0]
    for w in v0:
        master.append(master[-1] + w)
    if two:
        warp = 1.3 if alter else 1.0
        v1 = sorted(band_widths(k1, k2, 2 * nint(bands * math.log2(k2 / k1) / (2 * warp))))
        if v1[0] < max(v0):
            change = max(v0) - v1[0]
            v1[0] += change
            v1[-1] -= change
            v1.sort()
        for w in v1:
            master.append(master[-1] + w)
    n_high = len(master) - 1 - xover
    kx = master[xover]
    return n_high, (n_high + 1) // 2, max(1, nint(noise * math.log2(k2 / kx)))


def codewords(b, words, count):
    """count codewords (bit strings) cycling through words."""
    for i in range(count):
        for bit in words[i % len(words)]:
            b.put(int(bit), 1)


def multiband_payload(channels, ps):
    """extension_payload() bits of MULTIBAND (see the docstring), padded to whole bytes."""
    b = Bits()
    b.put(13, 4)  # EXT_SBR_DATA
    b.put(1, 1)  # bs_header_flag
    if channels == 1:
        for value, width in [(1, 1), (5, 4), (9, 4), (1, 3), (0, 2), (1, 1), (1, 1), (2, 2), (1, 1), (2, 2),
                             (2, 2), (2, 2), (1, 1), (1, 1)]:
            b.put(value, width)  # sbr_header()
        n_high, n_low, n_q = sbr_tables(5, 9, 1, 2, 1, 2)
        assert (n_high, n_low, n_q) == (15, 8, 3)
        b.put(0, 1)  # bs_data_extra
        if ps:  # FIXVAR, 2 envelopes
            for value, width in [(1, 2), (0, 2), (1, 2), (1, 2), (0, 2), (1, 1), (0, 1)]:
                b.put(value, width)
            envelopes, resolution = 2, [False, True]
        else:  # VARFIX, 3 envelopes
            for value, width in [(2, 2), (0, 2), (2, 2), (0, 2), (1, 2), (0, 2), (0, 1), (1, 1), (1, 1)]:
                b.put(value, width)
            envelopes, resolution = 3, [False, True, True]
        b.put(0, 1)  # bs_df_env: envelope 0 in frequency
        for _ in range(envelopes - 1):
            b.put(1, 1)  # further envelopes in time
        b.put(1, 1), b.put(0, 1)  # bs_df_noise
        for mode in [1, 2, 0][:n_q]:
            b.put(mode, 2)  # sbr_invf
        b.put(20, 6)  # bs_env_start_value_level (3.0 dB)
        codewords(b, ["110", "10"], n_low - 1)  # f_huffman_env_3_0dB +1, -1
        for env in range(1, envelopes):
            codewords(b, ["0", "10"], n_high if resolution[env] else n_low)  # t_huffman_env_3_0dB 0, -1
        codewords(b, ["10", "0"], n_q)  # t_huffman_noise_3_0dB +1, 0
        b.put(10, 5)  # bs_noise_start_value_level
        codewords(b, ["10", "110"], n_q - 1)  # f_huffman_env_3_0dB -1, +1
        b.put(1, 1)  # bs_add_harmonic_flag
        for band in range(n_high):
            b.put(1 if band == 0 else 0, 1)
    else:
        for value, width in [(0, 1), (5, 4), (9, 4), (0, 3), (0, 2), (1, 1), (0, 1), (1, 2), (0, 1), (1, 2)]:
            b.put(value, width)  # sbr_header()
        n_high, n_low, n_q = sbr_tables(5, 9, 0, 1, 0, 1)
        assert (n_high, n_low, n_q) == (20, 10, 2)
        b.put(0, 1), b.put(1, 1)  # bs_data_extra, bs_coupling
        b.put(0, 2), b.put(1, 2), b.put(1, 1)  # sbr_grid(0): FIXFIX, 2 envelopes, high resolution
        for bit in [0, 1, 0, 1, 0, 0, 0, 1]:
            b.put(bit, 1)  # sbr_dtdf(0), sbr_dtdf(1)
        b.put(2, 2), b.put(1, 2)  # sbr_invf(0)
        b.put(40, 7)  # bs_env_start_value_level (1.5 dB)
        codewords(b, ["100", "01"], n_high - 1)  # f_huffman_env_1_5dB +1, -1
        codewords(b, ["00"], n_high)  # t_huffman_env_1_5dB 0
        b.put(10, 5)  # bs_noise_start_value_level
        codewords(b, ["0"], n_q - 1)  # f_huffman_env_3_0dB 0
        codewords(b, ["0"], n_q)  # t_huffman_noise_3_0dB 0
        b.put(24, 6)  # bs_env_start_value_balance (1.5 dB)
        codewords(b, ["110", "10"], n_high - 1)  # f_huffman_env_bal_1_5dB +1, -1
        b.put(24, 6)
        codewords(b, ["0"], n_high - 1)  # f_huffman_env_bal_1_5dB 0
        b.put(12, 5)  # bs_noise_start_value_balance
        codewords(b, ["0"], n_q - 1)  # f_huffman_env_bal_3_0dB 0
        codewords(b, ["0", "110"], n_q)  # t_huffman_noise_bal_3_0dB 0, +1
        b.put(0, 1), b.put(0, 1)  # bs_add_harmonic_flag
    extended_data(b, ps)
    while len(b.bits) % 8:
        b.put(0, 1)
    return b.bits


def to_bits(data):
    return [(byte >> (7 - i)) & 1 for byte in data for i in range(8)]


def to_bytes(bits):
    bits = bits + [0] * (-len(bits) % 8)
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def with_sbr(block, channels, ps, multiband=False):
    """The raw data block with a fill element before END. END is the last 3 bits up to the
    block's last set bit: byte_alignment() after it writes zeros (ffmpeg does)."""
    bits = to_bits(block)
    last = max(i for i, bit in enumerate(bits) if bit)
    end = last - 2
    if bits[end:last + 1] != [1, 1, 1]:
        raise SystemExit("no END element at the end of a block")
    payload = multiband_payload(channels, ps) if multiband else sbr_payload(channels, ps)
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
        block = with_sbr(buf[off + hl:off + length], channels, a.ps, a.multiband)
        out += set_header(header, 1, 7 + len(block), 1) + block
    open(a.output, "wb").write(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sbr")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--ps", action="store_true")
    s.add_argument("--multiband", action="store_true")
    s.set_defaults(func=cmd_sbr)
    a = p.parse_args()
    a.func(a)


if __name__ == "__main__":
    main()
