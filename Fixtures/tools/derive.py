#!/usr/bin/env python3
"""Derive fixtures that no encoder writes directly, by small, documented edits
of real encoder output. Every edit keeps the audio payload byte-identical.

Subcommands (IN and OUT may be the same path):

  insert IN OUT --id ID (--hex H | --text T | --payload-of FILE:ID)
                (--before ID | --after ID | --end)
      Insert a top-level chunk into a RIFF/RIFX/RF64/FORM file; pad byte added
      for odd sizes; RIFF/FORM size recomputed.
  move IN OUT --id ID --after ID
      Move a top-level chunk after another one (e.g. LIST after data).
  set-sizes IN OUT [--riff N] [--chunk ID=N ...]
      Overwrite the RIFF/FORM size and/or chunk size fields (no re-layout).
  magic IN OUT NEWMAGIC
      Replace the 4-byte file magic (e.g. RF64 -> BW64).
  aifc-compression IN OUT --type FOURCC [--name TEXT]
      Replace the compressionType (and compressionName) of an AIFC COMM chunk.
  aifc-strip-compression IN OUT
      Cut an AIFC COMM chunk back to the 18-byte AIFF layout (no
      compressionType/compressionName), keeping FORM type AIFC.
  aiff-comt-timestamp IN OUT --value N
      Set every timeStamp of the COMT (comments) chunk to N (sox writes the
      wall-clock time there, which would make the fixture non-reproducible).
"""

import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chunks as C  # noqa: E402


def fourcc(s):
    b = s.encode("latin-1")
    if len(b) != 4:
        raise SystemExit("chunk id must be 4 characters: %r" % s)
    return b


def pstring(text):
    """AIFF Pascal string: count byte + text, padded to an even total length."""
    b = text.encode("latin-1")
    out = bytes([len(b)]) + b
    if len(out) & 1:
        out += b"\x00"
    return out


def cmd_insert(a):
    buf = C.read(a.input)
    if a.hex is not None:
        payload = bytes.fromhex(a.hex)
    elif a.text is not None:
        payload = a.text.encode("utf-8")
    else:
        path, cid = a.payload_of.rsplit(":", 1)
        src = C.read(path)
        payload = C.riff_find(src, fourcc(cid.ljust(4))).data
    new = (fourcc(a.id), payload)

    def edit(pairs):
        if a.end:
            return pairs + [new]
        anchor = fourcc(a.before or a.after)
        for i, (cid, _) in enumerate(pairs):
            if cid == anchor:
                j = i if a.before else i + 1
                return pairs[:j] + [new] + pairs[j:]
        raise SystemExit("anchor chunk %r not found" % anchor)

    C.write(a.output, C.riff_rebuild(buf, edit))


def cmd_move(a):
    buf = C.read(a.input)
    cid, anchor = fourcc(a.id), fourcc(a.after)

    def edit(pairs):
        moving = [p for p in pairs if p[0] == cid]
        if len(moving) != 1:
            raise SystemExit("expected exactly one %r chunk" % cid)
        rest = [p for p in pairs if p[0] != cid]
        for i, (c, _) in enumerate(rest):
            if c == anchor:
                return rest[:i + 1] + moving + rest[i + 1:]
        raise SystemExit("anchor chunk %r not found" % anchor)

    C.write(a.output, C.riff_rebuild(buf, edit))


def cmd_set_sizes(a):
    buf = C.read(a.input)
    if a.riff is not None:
        C.set_riff_size(buf, int(a.riff, 0))
    for spec in a.chunk or []:
        cid, value = spec.split("=", 1)
        C.riff_set_size_field(buf, fourcc(cid.ljust(4)), int(value, 0))
    C.write(a.output, buf)


def cmd_magic(a):
    buf = C.read(a.input)
    buf[0:4] = fourcc(a.magic)
    C.write(a.output, buf)


def cmd_aifc_compression(a):
    buf = C.read(a.input)
    if bytes(buf[8:12]) != b"AIFC":
        raise SystemExit("not an AIFC file")

    def edit(pairs):
        out = []
        for cid, data in pairs:
            if cid == b"COMM":
                name = pstring(a.name) if a.name is not None else data[22:]
                data = data[:18] + fourcc(a.type) + name
            out.append((cid, data))
        return out

    C.write(a.output, C.riff_rebuild(buf, edit))


def cmd_aifc_strip_compression(a):
    buf = C.read(a.input)
    if bytes(buf[8:12]) != b"AIFC":
        raise SystemExit("not an AIFC file")

    def edit(pairs):
        return [(cid, data[:18] if cid == b"COMM" else data) for cid, data in pairs]

    C.write(a.output, C.riff_rebuild(buf, edit))


def cmd_aiff_comt_timestamp(a):
    buf = C.read(a.input)
    c = C.riff_find(buf, b"COMT")
    (count,) = struct.unpack(">H", c.data[:2])
    pos = c.data_offset + 2
    for _ in range(count):
        buf[pos:pos + 4] = struct.pack(">I", a.value)
        (n,) = struct.unpack(">H", buf[pos + 6:pos + 8])
        pos += 8 + n + (n & 1)
    C.write(a.output, buf)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("insert")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--id", required=True)
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--hex")
    g.add_argument("--text")
    g.add_argument("--payload-of")
    w = s.add_mutually_exclusive_group(required=True)
    w.add_argument("--before")
    w.add_argument("--after")
    w.add_argument("--end", action="store_true")
    s.set_defaults(fn=cmd_insert)

    s = sub.add_parser("move")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--id", required=True)
    s.add_argument("--after", required=True)
    s.set_defaults(fn=cmd_move)

    s = sub.add_parser("set-sizes")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--riff")
    s.add_argument("--chunk", action="append")
    s.set_defaults(fn=cmd_set_sizes)

    s = sub.add_parser("magic")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("magic")
    s.set_defaults(fn=cmd_magic)

    s = sub.add_parser("aifc-compression")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--type", required=True)
    s.add_argument("--name")
    s.set_defaults(fn=cmd_aifc_compression)

    s = sub.add_parser("aifc-strip-compression")
    s.add_argument("input")
    s.add_argument("output")
    s.set_defaults(fn=cmd_aifc_strip_compression)

    s = sub.add_parser("aiff-comt-timestamp")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--value", type=int, default=0)
    s.set_defaults(fn=cmd_aiff_comt_timestamp)

    a = p.parse_args()
    a.fn(a)


if __name__ == "__main__":
    main()
