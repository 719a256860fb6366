#!/usr/bin/env python3
"""Rewrites a WebM/Matroska file into the shape of a live recording (Chrome's MediaRecorder,
an Icecast WebM mount): every Cluster's Element Data Size becomes "unknown" (all value bits set,
RFC 8794 section 6.2), written with the same width so that no offset moves. The Segment of a
file written to a pipe by ffmpeg already has an unknown size and no Cues or Duration.

    webm_live.py IN OUT

Walks the elements from the start (EBML header, then the Segment's children) by their IDs and
sizes; fails when the input has no Cluster or a Cluster of unknown size already.
"""
import sys


def vint(data, pos):
    """(value, length) of the variable-length integer at pos; marker bit removed."""
    first = data[pos]
    length = 1
    while length <= 8 and not first & (0x80 >> (length - 1)):
        length += 1
    if length > 8:
        raise SystemExit(f"webm_live.py: malformed variable-length integer at {pos}")
    value = first & (0xFF >> length)
    for b in data[pos + 1:pos + length]:
        value = value << 8 | b
    return value, length


def element_id(data, pos):
    _, length = vint(data, pos)
    return int.from_bytes(data[pos:pos + length], "big"), length


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = bytearray(open(src, "rb").read())
    pos = 0
    ident, n = element_id(data, pos)
    assert ident == 0x1A45DFA3, "no EBML header"
    size, m = vint(data, pos + n)
    pos += n + m + size
    ident, n = element_id(data, pos)
    assert ident == 0x18538067, "no Segment after the EBML header"
    _, m = vint(data, pos + n)
    pos += n + m
    clusters = 0
    while pos < len(data):
        ident, n = element_id(data, pos)
        size, m = vint(data, pos + n)
        if ident == 0x1F43B675:
            if size == (1 << (7 * m)) - 1:
                raise SystemExit("webm_live.py: a Cluster of unknown size already")
            data[pos + n] = 0xFF >> (m - 1)
            for k in range(1, m):
                data[pos + n + k] = 0xFF
            clusters += 1
        pos += n + m + size
    if clusters == 0:
        raise SystemExit("webm_live.py: no Cluster")
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
