#!/usr/bin/env python3
"""Builds AMR and AMR-WB files in the storage format of RFC 4867 section 5 from the frame-size
table alone (no AMR encoder ships in Debian's ffmpeg): the magic, then frames of a fixed, varied
sequence of frame types, each a header byte (P=0, FT, Q, P=00) and ceil(bits / 8) payload bytes.

Payload bytes are a deterministic pseudo-random sequence (the frames do not decode to speech; the
container does not care). Frame bits per type: 3GPP TS 26.101 Table 1a (AMR) and TS 26.201
Table 1a (AMR-WB), as RFC 4867 section 3.6 lists them.

usage: make_amr.py nb|wb OUT [--frames N] [--damaged]
  --damaged   one frame with Q = 0 (a damaged frame: still a frame of its size)
"""
import argparse

NB_BITS = {0: 95, 1: 103, 2: 118, 3: 134, 4: 148, 5: 159, 6: 204, 7: 244, 8: 39, 15: 0}
WB_BITS = {0: 132, 1: 177, 2: 253, 3: 285, 4: 317, 5: 365, 6: 397, 7: 461, 8: 477, 9: 40, 14: 0, 15: 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant", choices=["nb", "wb"])
    ap.add_argument("out")
    ap.add_argument("--frames", type=int, default=50)
    ap.add_argument("--damaged", action="store_true")
    a = ap.parse_args()
    bits = NB_BITS if a.variant == "nb" else WB_BITS
    magic = b"#!AMR\n" if a.variant == "nb" else b"#!AMR-WB\n"
    # Speech modes mostly, with comfort noise (SID) and NO_DATA runs as DTX produces them.
    speech = [t for t in bits if bits[t] > 100]
    sid = 8 if a.variant == "nb" else 9
    seq = []
    for i in range(a.frames):
        if i % 17 == 9:
            seq.append(sid)
        elif i % 17 in (10, 11):
            seq.append(15)
        else:
            seq.append(speech[(i * 5) % len(speech)])
    state = 0x12345678
    out = bytearray(magic)
    for i, ft in enumerate(seq):
        q = 0 if (a.damaged and i == a.frames // 2) else 1
        out.append((ft << 3) | (q << 2))
        for _ in range((bits[ft] + 7) // 8):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            out.append((state >> 16) & 0xFF)
    with open(a.out, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
