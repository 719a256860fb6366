#!/usr/bin/env python3
"""Derive MPEG audio fixtures that no encoder writes directly, by small, documented
edits of real encoder output. Frame bytes are never changed.

Subcommands:

  junk IN OUT [--prefix-text TEXT --prefix-length N] [--after-frame K:N:KIND ...]
      Insert junk: N bytes before the first frame (TEXT repeated), and N bytes
      after frame K (0-based) where KIND is `zero` (0x00 bytes) or `text`.
      IN must start with a frame (no ID3v2, no Xing frame needed).
  concat OUT IN [IN ...]
      Concatenate whole files (a second stream's Xing/Info frame ends up in the
      middle).
  prepend-tag IN OUT --tag-of FILE
      Put the leading ID3v2 tag of FILE in front of IN (which may have its own
      tag: the result starts with two consecutive ID3v2 tags).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpeg  # noqa: E402


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def cmd_junk(a):
    buf = read(a.input)
    frames = mpeg.frames(buf, 0)
    if not frames or frames[0][0] != 0:
        raise SystemExit("junk: input must start with an MPEG audio frame")
    inserts = {}
    for spec in a.after_frame or []:
        k, n, kind = spec.split(":")
        inserts[int(k)] = (int(n), kind)
    out = bytearray()
    if a.prefix_length:
        text = a.prefix_text.encode("ascii")
        out += (text * (a.prefix_length // len(text) + 1))[:a.prefix_length]
    end = 0
    for k, (off, n) in enumerate(frames):
        out += buf[off:off + n]
        end = off + n
        if k in inserts:
            size, kind = inserts[k]
            out += bytes(size) if kind == "zero" else (b"junk!" * size)[:size]
    out += buf[end:]
    write(a.output, out)


def cmd_concat(a):
    write(a.output, b"".join(read(p) for p in a.inputs))


def cmd_prepend_tag(a):
    tag_src = read(a.tag_of)
    n = mpeg.id3v2_size(tag_src)
    if n == 0:
        raise SystemExit("prepend-tag: %s has no ID3v2 tag" % a.tag_of)
    write(a.output, tag_src[:n] + read(a.input))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("junk")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--prefix-text", default="JUNK ")
    s.add_argument("--prefix-length", type=int, default=0)
    s.add_argument("--after-frame", action="append")
    s.set_defaults(fn=cmd_junk)
    s = sub.add_parser("concat")
    s.add_argument("output")
    s.add_argument("inputs", nargs="+")
    s.set_defaults(fn=cmd_concat)
    s = sub.add_parser("prepend-tag")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--tag-of", required=True)
    s.set_defaults(fn=cmd_prepend_tag)
    a = p.parse_args()
    a.fn(a)


if __name__ == "__main__":
    main()
