#!/usr/bin/env python3
"""Derives Fixtures/malformed/flac-*.flac from one small real FLAC file (5 frames) and adds
merges their rows into malformed/manifest.json (tools/manifest.py; any order of generators).
Each file is broken in exactly one way; expectations are in malformed/expected.json.

usage: make_malformed_flac.py BASE.flac OUTDIR
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from flac_variable import crc8, crc16  # noqa: E402
import manifest  # noqa: E402


def frames_of(path):
    with tempfile.TemporaryDirectory() as t:
        ana = os.path.join(t, "a.ana")
        subprocess.run(["flac", "-s", "-f", "-a", "-o", ana, path], check=True)
        return [(int(m.group(1)), int(m.group(2)) // 8)
                for m in re.finditer(r"^frame=\d+\toffset=(\d+)\tbits=(\d+)", open(ana).read(), re.M)]


def main():
    base_path, out = sys.argv[1], sys.argv[2]
    base = open(base_path, "rb").read()
    frames = frames_of(base_path)
    assert len(frames) == 5, frames
    src = "flac 1.4.2 -8 --blocksize 192 --no-padding, 8000 Hz mono 16-bit sine, 960 samples (5 frames)"
    entries = []

    def emit(name, data, defect, point):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        entries.append({"file": name, "derivedFrom": src, "defect": defect, "structuralPoint": point})

    (o1, s1), (o2, s2) = frames[1], frames[2]
    # The frame-2 header is 6 bytes (1-byte frame number, common block size and rate): CRC-8 at o2 + 5.
    b = bytearray(base)
    b[o2 + 5] ^= 0x01
    emit("flac-header-crc8-bad.flac", bytes(b),
         "frame 2's header CRC-8 off by one bit: that header is not a frame start, so frame 2 is damaged bytes "
         "after frame 1 (frames 0, 1, 3, 4 survive)", "frame 2 header @%d" % o2)
    b = bytearray(base)
    b[o2 + s2 - 1] ^= 0xFF
    emit("flac-footer-crc16-bad.flac", bytes(b),
         "frame 2's footer CRC-16 low byte inverted: frame 2 is not a packet (frames 0, 1, 3, 4 survive)",
         "frame 2 footer @%d" % (o2 + s2 - 2))
    lo, ls = frames[4]
    emit("flac-truncated-last-frame.flac", base[:lo + ls // 2],
         "cut in the middle of the last frame (4 of 5 frames whole)", "frame 4 @%d" % lo)
    # STREAMINFO declared 20 bytes long, its body cut to 20 bytes.
    head = bytes([base[4], 0, 0, 20]) + base[8:28]
    emit("flac-streaminfo-too-short.flac", base[:4] + head + base[42:],
         "STREAMINFO block length 20 (< 34)", "STREAMINFO @4")
    # A VORBIS_COMMENT header of 16 MiB - 1 bytes right after STREAMINFO: the stream ends inside it.
    emit("flac-block-length-huge.flac", base[:42] + bytes([0x04, 0xFF, 0xFF, 0xFF]) + base[42:],
         "a metadata block header declaring 16777215 bytes after STREAMINFO; the file ends inside it",
         "block header @42")
    b = bytearray(base)
    b[4] = (b[4] & 0x80) | 0x04
    emit("flac-first-block-not-streaminfo.flac", bytes(b),
         "the first metadata block's type is VORBIS_COMMENT (4) instead of STREAMINFO", "block header @4")
    # A valid header for frame 1 (copied from the real one) plus 40 junk bytes between frames 0 and 1.
    fake = base[o1:o1 + 6] + bytes((i * 37 + 11) & 0xFF for i in range(40))
    emit("flac-false-frame-between-frames.flac", base[:o1] + fake + base[o1:],
         "a copy of frame 1's 6-byte header and 40 junk bytes inserted before frame 1: the fake frame fails "
         "its CRC-16 and is not a packet (all 5 frames survive)", "inserted @%d" % o1)
    # Inside frame 1's audio data, a complete valid header claiming frame number 2; frame 1's footer
    # CRC-16 recomputed so frame 1 stays structurally valid (its audio decodes differently).
    b = bytearray(base[o1:o1 + s1])
    hdr = bytearray(base[o2:o2 + 6])
    pos = 20
    b[pos:pos + 6] = hdr
    assert crc8(bytes(b[pos:pos + 5])) == b[pos + 5]
    b[-2:] = crc16(bytes(b[:-2])).to_bytes(2, "big")
    emit("flac-false-sync-in-frame.flac", base[:o1] + bytes(b) + base[o1 + s1:],
         "frame 1's audio data holds a complete valid header for frame 2 at byte 20 (footer CRC-16 recomputed): "
         "a false sync that is not a frame boundary (all 5 frames survive, frame 1 whole)",
         "frame 1 + 20 @%d" % (o1 + 20))
    manifest.merge(out, entries)

if __name__ == "__main__":
    main()
