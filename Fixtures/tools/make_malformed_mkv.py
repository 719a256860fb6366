#!/usr/bin/env python3
"""Derives Fixtures/malformed/mkv-* from mkv/opus-48000-2ch-ffmpeg.webm (26 Opus blocks: 25
SimpleBlocks and a last BlockGroup) and merges their rows into malformed/manifest.json
(tools/manifest.py). Each file is broken in exactly one way; the outcomes are in
malformed/expected.json. The element walk below prints where each block is, so the counts in
expected.json can be checked by hand.

usage: make_malformed_mkv.py BASE.webm OUTDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import manifest  # noqa: E402
from webm_live import vint  # noqa: E402


def header(d, p):
    _, n = vint(d, p)
    ident = int.from_bytes(d[p:p + n], "big")
    size, m = vint(d, p + n)
    return ident, n + m, size


def blocks(d):
    """(offset, header length, size, id) of every SimpleBlock and BlockGroup, and the Tracks offset."""
    p = 0
    _, h, s = header(d, p)
    p += h + s
    _, h, _ = header(d, p)
    p += h
    out, tracks = [], None
    while p < len(d):
        ident, h, s = header(d, p)
        if ident == 0x1654AE6B:
            tracks = p
        if ident == 0x1F43B675:
            q, end = p + h, p + h + s
            while q < end:
                cid, ch, cs = header(d, q)
                if cid in (0xA3, 0xA0):
                    out.append((q, ch, cs, cid))
                q += ch + cs
        p += h + s
    return out, tracks


def main():
    base_path, out = sys.argv[1], sys.argv[2]
    base = open(base_path, "rb").read()
    found, tracks = blocks(base)
    assert len(found) == 26, len(found)
    for i, (o, h, s, cid) in enumerate(found):
        print("  block %d @%d header %d body %d id %X" % (i, o, h, s, cid))
    src = "mkv/opus-48000-2ch-ffmpeg.webm (ffmpeg libopus 48k, 26 blocks in one Cluster)"
    entries = []

    def emit(name, data, defect, point):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        entries.append({"file": name, "derivedFrom": src, "defect": defect, "structuralPoint": point})

    o, h, s, _ = found[10]
    emit("mkv-truncated-in-block.webm", base[:o + h + s // 2],
         "cut in the middle of block 10: blocks 0-9 whole (10 packets)", "block 10 @%d" % o)
    emit("mkv-garbage-before-ebml.webm", bytes(range(1, 17)) + base,
         "16 bytes (01..10) before the EBML header: no container at offset 0", "EBML @16")
    i = base.index(b"webm")
    emit("mkv-doctype-unknown.webm", base[:i] + b"xebm" + base[i + 4:],
         "DocType 'xebm': neither matroska nor webm", "DocType @%d" % i)
    i = base.index(b"A_OPUS")
    emit("mkv-codec-unknown.webm", base[:i] + b"A_OPUX" + base[i + 6:],
         "CodecID A_OPUX: the only audio track has a codec that is not read", "CodecID @%d" % i)
    o, _, _, _ = found[5]
    b = bytearray(base)
    b[o] = 0x00
    emit("mkv-damaged-block-id.webm", bytes(b),
         "block 5's ID byte 0xA3 zeroed (no element starts with 0x00): block 5 is lost, the parser finds "
         "block 6 by its track number and the element after it (25 packets)", "block 5 @%d" % o)
    o, h, s, _ = found[8]
    b = bytearray(base)
    b[o + h] = 0x00
    emit("mkv-damaged-track-number.webm", bytes(b),
         "block 8's track number byte zeroed (a malformed variable-length integer): block 8 is skipped "
         "whole by its size (25 packets)", "block 8 @%d" % o)
    manifest.merge(out, entries)


if __name__ == "__main__":
    main()
