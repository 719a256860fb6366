#!/usr/bin/env python3
"""Cuts the sample size table (stsz) of an MP4's audio track short, as a file whose table was
truncated by a faulty writer or copy looks: the stsz box keeps its declared sample_count but holds only
the first KEEP entries; its box size is lowered to match, and the bytes it no longer covers become a
'free' box (ISO/IEC 14496-12 §8.1.2), so every parent box size (stbl, minf, mdia, trak, moov) and every
chunk offset stays valid. Only stsz is wrong: sample_count says N, the box holds KEEP entries.

    python3 tools/damage_mp4.py IN OUT [KEEP]     # KEEP defaults to half the declared count

Deterministic; reads and writes whole files. Written for the fixtures from ISO/IEC 14496-12 only.
"""
import struct
import sys

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}


def boxes(data, start, end):
    """(type, box start, header size, box end) of each box in data[start:end]."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        if size < header or at + size > end:
            raise SystemExit(f"damage_mp4.py: bad box {kind!r} at {at}")
        yield kind, at, header, at + size
        at += size


def handler(data, trak):
    kind, start, header, end = trak
    for k, s, h, e in boxes(data, start + header, end):
        if k == b"mdia":
            for k2, s2, h2, e2 in boxes(data, s + h, e):
                if k2 == b"hdlr":
                    return data[s2 + h2 + 8:s2 + h2 + 12]
    return None


def find_stsz(data):
    for moov in boxes(data, 0, len(data)):
        if moov[0] != b"moov":
            continue
        for trak in boxes(data, moov[1] + moov[2], moov[3]):
            if trak[0] != b"trak" or handler(data, trak) != b"soun":
                continue
            path = [trak]
            for name in (b"mdia", b"minf", b"stbl", b"stsz"):
                parent = path[-1]
                path.append(next(b for b in boxes(data, parent[1] + parent[2], parent[3]) if b[0] == name))
            return path[-1]
    raise SystemExit("damage_mp4.py: no audio track with an stsz box")


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = bytearray(open(src, "rb").read())
    kind, start, header, end = find_stsz(data)
    if header != 8:
        raise SystemExit("damage_mp4.py: 64-bit stsz size not handled")
    body = start + header
    sample_size, count = struct.unpack(">II", data[body + 4:body + 12])
    if sample_size != 0:
        raise SystemExit("damage_mp4.py: constant sample size, no table to cut")
    keep = int(sys.argv[3]) if len(sys.argv) > 3 else count // 2
    freed = (count - keep) * 4
    if freed < 8:
        raise SystemExit("damage_mp4.py: cut too small for a free box")
    new_end = body + 12 + keep * 4
    struct.pack_into(">I", data, start, new_end - start)
    data[new_end:end] = struct.pack(">I4s", freed, b"free") + bytes(freed - 8)
    open(dst, "wb").write(data)
    print(f"damage_mp4.py: stsz at {start}: sample_count {count}, {keep} entries kept, free box of {freed} bytes at {new_end}")


if __name__ == "__main__":
    main()
