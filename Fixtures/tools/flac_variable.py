#!/usr/bin/env python3
"""Joins FLAC files encoded from consecutive pieces of one signal (each with its own fixed
block size) into one variable-blocksize FLAC stream (RFC 9639 §9.1: blocking strategy bit 1,
the coded number is the first sample's number).

No Debian 12 encoder writes variable block sizes (libFLAC and ffmpeg's encoder use one fixed
size per stream), so this is the honest way to get one: the frames' subframes are libFLAC's,
untouched; only the frame headers are rewritten (blocking bit, coded number, CRC-8) and the
footer CRC-16 recomputed. The frame list comes from libFLAC itself (`flac --analyze`), not from
a sync search. Output STREAMINFO: min/max block size (min excluding the last frame), min/max
frame size, total samples, MD5 all zero (unknown; the pieces were encoded separately).
Check the result with `flac -t` (decodes every frame, checks both CRCs).

usage: flac_variable.py OUT IN.flac [IN.flac ...]
"""
import os
import re
import subprocess
import sys
import tempfile


def crc8(data):
    c = 0
    for b in data:
        c ^= b
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return c


def crc16(data):
    c = 0
    for b in data:
        c ^= b << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x8005) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
    return c


def utf8_number(n):
    """The coded number of RFC 9639 §9.1.5 (UTF-8 extended to 36 bits)."""
    if n < 0x80:
        return bytes([n])
    for count, lead in ((2, 0xC0), (3, 0xE0), (4, 0xF0), (5, 0xF8), (6, 0xFC), (7, 0xFE)):
        if n < 1 << (5 * count + 1 if count < 7 else 36):
            out = []
            for _ in range(count - 1):
                out.append(0x80 | (n & 0x3F))
                n >>= 6
            return bytes([lead | n] + out[::-1])
    raise ValueError("number too large")


def coded_length(lead):
    for count, (lo, hi) in enumerate(((0x00, 0x7F), (0xC0, 0xDF), (0xE0, 0xEF), (0xF0, 0xF7),
                                      (0xF8, 0xFB), (0xFC, 0xFD), (0xFE, 0xFE)), start=1):
        if lo <= lead <= hi:
            return count
    raise ValueError("bad coded number")


def read(path):
    data = open(path, "rb").read()
    assert data[:4] == b"fLaC"
    pos, streaminfo = 4, None
    while True:
        last, kind = data[pos] >> 7, data[pos] & 0x7F
        length = int.from_bytes(data[pos + 1:pos + 4], "big")
        if kind == 0:
            streaminfo = data[pos + 4:pos + 4 + length]
        pos += 4 + length
        if last:
            break
    with tempfile.TemporaryDirectory() as t:
        ana = os.path.join(t, "a.ana")
        subprocess.run(["flac", "-s", "-f", "-a", "-o", ana, path], check=True)
        frames = [(int(m.group(1)), int(m.group(2)) // 8, int(m.group(3)))
                  for m in re.finditer(r"^frame=\d+\toffset=(\d+)\tbits=(\d+)\tblocksize=(\d+)",
                                       open(ana).read(), re.M)]
    return data, streaminfo, frames


def main():
    out, inputs = sys.argv[1], sys.argv[2:]
    frames_out, sample, sizes, blocks, info = [], 0, [], [], None
    for path in inputs:
        data, streaminfo, frames = read(path)
        info = info or streaminfo
        for offset, size, blocksize in frames:
            frame = data[offset:offset + size]
            assert crc16(frame) == 0, "frame at %d of %s: CRC-16" % (offset, path)
            n = coded_length(frame[4])
            rest = 4 + n
            extra = {6: 1, 7: 2}.get(frame[2] >> 4, 0) + {12: 1, 13: 2, 14: 2}.get(frame[2] & 0xF, 0)
            header = bytes([frame[0], frame[1] | 1, frame[2], frame[3]]) + utf8_number(sample) \
                + frame[rest:rest + extra]
            header += bytes([crc8(header)])
            body = header + frame[rest + extra + 1:size - 2]
            body += crc16(body).to_bytes(2, "big")
            frames_out.append(body)
            sizes.append(len(body))
            blocks.append(blocksize)
            sample += blocksize
    head = bytearray(info[:34])
    head[0:2] = min(blocks[:-1]).to_bytes(2, "big")
    head[2:4] = max(blocks).to_bytes(2, "big")
    head[4:7] = min(sizes).to_bytes(3, "big")
    head[7:10] = max(sizes).to_bytes(3, "big")
    packed = int.from_bytes(head[10:18], "big") & ~0xF_FFFF_FFFF | sample
    head[10:18] = packed.to_bytes(8, "big")
    head[18:34] = bytes(16)
    with open(out, "wb") as f:
        f.write(b"fLaC" + bytes([0x80, 0, 0, 34]) + bytes(head) + b"".join(frames_out))


if __name__ == "__main__":
    main()
