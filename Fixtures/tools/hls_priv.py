#!/usr/bin/env python3
"""Prefix each packed-audio segment of an HLS playlist with the ID3v2.4 tag RFC 8216 section 3.4 asks
for: one PRIV frame, owner "com.apple.streaming.transportStreamTimestamp", data the 33-bit MPEG-2 PTS of
the segment's first sample as an 8-byte big-endian integer. The PTS is 10 s (900000 ticks of 90 kHz)
plus the sum of the EXTINF durations before the segment, rounded. Prints {segment: pts} as JSON.

Usage: hls_priv.py PLAYLIST.m3u8 (segments are rewritten in place, next to the playlist)
"""
import json
import os
import struct
import sys

OWNER = b"com.apple.streaming.transportStreamTimestamp\x00"


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def tag(pts):
    body = OWNER + struct.pack(">Q", pts & 0x1FFFFFFFF)
    frame = b"PRIV" + syncsafe(len(body)) + b"\x00\x00" + body
    return b"ID3\x04\x00\x00" + syncsafe(len(frame)) + frame


def main():
    playlist = sys.argv[1]
    folder = os.path.dirname(playlist)
    start = 0.0
    duration = None
    out = {}
    for line in open(playlist):
        line = line.strip()
        if line.startswith("#EXTINF:"):
            duration = float(line[8:].split(",")[0])
        elif line and not line.startswith("#"):
            pts = 900000 + round(start * 90000)
            path = os.path.join(folder, line)
            data = open(path, "rb").read()
            open(path, "wb").write(tag(pts) + data)
            out[line] = pts
            start += duration
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


main()
