#!/usr/bin/env python3
"""Rewrites nBlockAlign in a RIFF WAVE file's `fmt ` chunk (Microsoft WAVEFORMATEX: wFormatTag 2,
nChannels 2, nSamplesPerSec 4, nAvgBytesPerSec 4, nBlockAlign 2, wBitsPerSample 2, little-endian), and
nAvgBytesPerSec to nSamplesPerSec × the new nBlockAlign, as a writer that computes the block align wrongly
(e.g. bits / 8, forgetting the channels) writes both. Nothing else changes.

    python3 tools/wav_block_align.py IN OUT BLOCK_ALIGN

Deterministic; written for the fixtures from the RIFF/WAVEFORMATEX layout only.
"""
import struct
import sys


def main():
    src, dst, align = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(src, "rb").read())
    if data[0:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise SystemExit("wav_block_align.py: not a RIFF WAVE file")
    at = 12
    while at + 8 <= len(data):
        kind, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if kind == b"fmt ":
            body = at + 8
            rate = struct.unpack("<I", data[body + 4:body + 8])[0]
            struct.pack_into("<IH", data, body + 8, rate * align, align)
            open(dst, "wb").write(data)
            return
        at += 8 + size + (size & 1)
    raise SystemExit("wav_block_align.py: no fmt chunk")


if __name__ == "__main__":
    main()
