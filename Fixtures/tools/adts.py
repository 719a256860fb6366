#!/usr/bin/env python3
"""ADTS helpers for the fixtures: walk frames, and derive files no encoder
writes directly by small, documented edits of real encoder output (ffmpeg's
native AAC encoder, ADTS muxer). Every edit keeps the raw AAC data blocks
byte-identical; only ADTS headers, error-check fields, and bytes between frames
change.

Subcommands (IN and OUT may be the same path):

  frames IN
      Print one line per frame: offset, aac_frame_length, header length,
      protection_absent, raw data blocks (a check, not a fixture).
  crc IN OUT
      protection_absent = 0 on every frame, with a 16-bit crc_check inserted
      after the 7-byte header (aac_frame_length + 2). The value written is the
      MPEG CRC-16 (x^16+x^15+x^2+1, preset 0xFFFF) of the 7 header bytes only;
      a true ADTS CRC also covers bits inside the channel elements, which only an
      AAC decoder can locate (ISO/IEC 13818-7 8.2.2), so these values are NOT the
      spec's and no reader here checks them.
  multiblock IN OUT [--crc]
      Merge frames pairwise (0+1, 2+3, ...) into frames of 2 raw data blocks
      (number_of_raw_data_blocks_in_frame = 1); an odd last frame stays single.
      With --crc: protection_absent = 0, raw_data_block_position[1] (offset of
      block 1 from block 0's start, block 0's CRC included) and the header
      crc_check (CRC-16 of the 7 header bytes + the position field, which is all
      adts_header_error_check protects), then each block followed by a 16-bit
      crc_check (CRC-16 of the block's bytes: again NOT the spec's value).
  insert IN OUT --before-frame N (--hex H | --file F | --id3-of F)
      Insert bytes before frame N (N = 0: at the start, after a leading ID3v2
      tag; N = frame count: at the end). --id3-of F takes the leading ID3v2 tag
      of file F.
  strip-id3 IN OUT
      Remove a leading ID3v2 tag.
"""

import argparse
import sys


def crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def id3_size(buf, off=0):
    """Total size of an ID3v2 tag at off, or 0."""
    h = buf[off:off + 10]
    if len(h) < 10 or h[:3] != b"ID3" or any(b >= 0x80 for b in h[6:10]):
        return 0
    size = 0
    for b in h[6:10]:
        size = size << 7 | b
    footer = 10 if h[3] == 4 and h[5] & 0x10 else 0
    return 10 + size + footer


def header_fields(h):
    return {
        "protection_absent": h[1] & 1,
        "frame_length": ((h[3] & 3) << 11) | (h[4] << 3) | (h[5] >> 5),
        "rdb": (h[6] & 3) + 1,
    }


def frames(buf):
    """[(offset, length, header_length, protection_absent, blocks)] of a clean ADTS file
    (a leading ID3v2 tag is skipped; anything else must be contiguous frames)."""
    off = id3_size(buf)
    out = []
    while off < len(buf):
        h = buf[off:off + 7]
        if len(h) < 7 or h[0] != 0xFF or h[1] & 0xF6 != 0xF0:
            raise SystemExit("not an ADTS frame at %d" % off)
        f = header_fields(h)
        hl = 7 if f["protection_absent"] else 7 + 2 * (f["rdb"] - 1) + 2
        out.append((off, f["frame_length"], hl, f["protection_absent"], f["rdb"]))
        off += f["frame_length"]
    return out


def set_header(h, protection_absent, frame_length, rdb):
    h = bytearray(h[:7])
    h[1] = (h[1] & 0xFE) | protection_absent
    h[3] = (h[3] & 0xFC) | (frame_length >> 11)
    h[4] = (frame_length >> 3) & 0xFF
    h[5] = ((frame_length & 7) << 5) | (h[5] & 0x1F)
    h[6] = (h[6] & 0xFC) | (rdb - 1)
    return h


def payloads(buf):
    """Raw data block of every single-block frame (header and CRC stripped), plus the header."""
    out = []
    for off, length, hl, _pa, rdb in frames(buf):
        if rdb != 1:
            raise SystemExit("multi-block input not supported")
        out.append((bytes(buf[off:off + 7]), bytes(buf[off + hl:off + length])))
    return out


def cmd_frames(a):
    buf = open(a.input, "rb").read()
    for f in frames(buf):
        print("%d %d %d %d %d" % f)


def cmd_crc(a):
    buf = open(a.input, "rb").read()
    out = bytearray(buf[:id3_size(buf)])
    for h, p in payloads(buf):
        nh = set_header(h, 0, 9 + len(p), 1)
        out += nh + crc16(nh).to_bytes(2, "big") + p
    open(a.output, "wb").write(out)


def cmd_multiblock(a):
    buf = open(a.input, "rb").read()
    out = bytearray(buf[:id3_size(buf)])
    ps = payloads(buf)
    for i in range(0, len(ps), 2):
        pair = ps[i:i + 2]
        h = pair[0][0]
        if len(pair) == 1:
            if a.crc:
                nh = set_header(h, 0, 9 + len(pair[0][1]), 1)
                out += nh + crc16(nh).to_bytes(2, "big") + pair[0][1]
            else:
                out += h + pair[0][1]
            continue
        b0, b1 = pair[0][1], pair[1][1]
        if a.crc:
            length = 7 + 2 + 2 + len(b0) + 2 + len(b1) + 2
            nh = set_header(h, 0, length, 2) + (len(b0) + 2).to_bytes(2, "big")
            out += nh + crc16(nh).to_bytes(2, "big")
            out += b0 + crc16(b0).to_bytes(2, "big") + b1 + crc16(b1).to_bytes(2, "big")
        else:
            out += set_header(h, 1, 7 + len(b0) + len(b1), 2) + b0 + b1
    open(a.output, "wb").write(out)


def cmd_insert(a):
    buf = open(a.input, "rb").read()
    if a.hex is not None:
        data = bytes.fromhex(a.hex)
    elif a.file is not None:
        data = open(a.file, "rb").read()
    else:
        src = open(a.id3_of, "rb").read()
        n = id3_size(src)
        if n == 0:
            raise SystemExit("no ID3v2 tag at the start of " + a.id3_of)
        data = src[:n]
    if a.before_frame == 0:
        at = id3_size(buf)  # after a leading tag; the rest need not be clean frames
    else:
        fs = frames(buf)
        at = fs[a.before_frame][0] if a.before_frame < len(fs) else len(buf)
    open(a.output, "wb").write(buf[:at] + data + buf[at:])


def cmd_strip_id3(a):
    buf = open(a.input, "rb").read()
    open(a.output, "wb").write(buf[id3_size(buf):])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("frames")
    p.add_argument("input")
    p.set_defaults(fn=cmd_frames)
    p = sub.add_parser("crc")
    p.add_argument("input")
    p.add_argument("output")
    p.set_defaults(fn=cmd_crc)
    p = sub.add_parser("multiblock")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--crc", action="store_true")
    p.set_defaults(fn=cmd_multiblock)
    p = sub.add_parser("insert")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--before-frame", type=int, required=True)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--hex")
    g.add_argument("--file")
    g.add_argument("--id3-of")
    p.set_defaults(fn=cmd_insert)
    p = sub.add_parser("strip-id3")
    p.add_argument("input")
    p.add_argument("output")
    p.set_defaults(fn=cmd_strip_id3)
    a = ap.parse_args()
    a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
