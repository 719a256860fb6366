#!/usr/bin/env python3
"""Small MPEG audio helpers for the fixture tools (not used by the library).

frames(buf, start) walks MPEG audio frames from `start` with the frame-length
formulas of ISO/IEC 11172-3 2.4.3.1 and 13818-3 (free format not supported),
stopping at the first byte that is not a valid header. id3v2_size(buf) is the
length of a leading ID3v2 tag (0 if none).
"""

BITRATES_MPEG1 = [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],   # Layer I
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],      # Layer II
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],       # Layer III
]
BITRATES_LSF = [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],      # Layer I
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],           # Layers II, III
]
RATES = {3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000]}


def frame_length(h):
    """Frame length in bytes for header word h, 0 for free format, None if invalid."""
    version, layer = (h >> 19) & 3, 4 - ((h >> 17) & 3)
    index, rate_index, padding = (h >> 12) & 15, (h >> 10) & 3, (h >> 9) & 1
    if (h >> 21) != 0x7FF or version == 1 or layer == 4 or index == 15 or rate_index == 3:
        return None
    kbps = BITRATES_MPEG1[layer - 1][index] if version == 3 else BITRATES_LSF[0 if layer == 1 else 1][index]
    if kbps == 0:
        return 0
    rate = RATES[version][rate_index]
    if layer == 1:
        return (12 * kbps * 1000 // rate + padding) * 4
    if layer == 3 and version != 3:
        return 72 * kbps * 1000 // rate + padding
    return 144 * kbps * 1000 // rate + padding


def frames(buf, start=0):
    """[(offset, length)] of consecutive frames from start."""
    out, i = [], start
    while i + 4 <= len(buf):
        n = frame_length(int.from_bytes(buf[i:i + 4], "big"))
        if not n or i + n > len(buf):
            break
        out.append((i, n))
        i += n
    return out


def id3v2_size(buf):
    """Length of the ID3v2 tag at the start of buf (header, body, footer), 0 if none."""
    if len(buf) < 10 or buf[:3] != b"ID3":
        return 0
    size = (buf[6] << 21) | (buf[7] << 14) | (buf[8] << 7) | buf[9]
    footer = 10 if buf[3] == 4 and buf[5] & 0x10 else 0
    return 10 + size + footer
