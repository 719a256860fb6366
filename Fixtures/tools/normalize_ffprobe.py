#!/usr/bin/env python3
"""Normalize ffprobe 5.1 output for one file into the fixture oracle schema.

Usage:
  normalize_ffprobe.py --file NAME --rc N --main MAIN.json --data DATA.json --log STDERR.txt

MAIN.json : ffprobe -show_format -show_streams -show_packets -show_error -of json
DATA.json : ffprobe -show_streams -show_data -of json   (only for the extradata hex dump)
STDERR.txt: ffprobe's stderr at -v error

Writes the normalized JSON (sorted keys, 1-space indent) to stdout:
{
  "file", "ok", "format_name", "format_tags",
  "stream": {codec_name, codec_tag_string, profile, sample_fmt, sample_rate, channels,
             channel_layout, bits_per_sample, bits_per_raw_sample, block_align,
             time_base, duration_ts, nb_frames, extradata_hex, tags} | null,
  "summary": {packets, first_pos, bytes, duration_sum, last_end
              [, skip_samples, discard_padding]},
  "packets": [[pos, size, duration_in_sample_frames], ...],
  "errors": [...]
}
Packet durations are converted from time_base units to sample frames
(duration * tb_num * sample_rate / tb_den). If that is not an integer it is rounded
and the file gets an "inexact duration" note in errors. A packet without a duration
(ffprobe "N/A", e.g. ALAC/Opus in CAF) gets null, and summary.duration_sum is then
null too.

summary.skip_samples is packet 0's "Skip Samples" side data skip_samples (MP3:
LAME encoder delay + 529) and summary.discard_padding the last packet's
discard_padding (MP3: LAME padding - 529); each key is present only when
ffprobe reports that side data on that packet.
"""

import argparse
import json
import os
import re
from fractions import Fraction


def to_int(v):
    if v is None:
        return None
    if isinstance(v, int):
        return v
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def hexdump_to_hex(dump):
    """ffprobe -show_data hex dump ("00000000: 0000 0024 616c ...  ascii") -> hex string."""
    if not dump:
        return None
    out = []
    for line in dump.splitlines():
        m = re.match(r"^[0-9a-fA-F]{8}: (.*)$", line)
        if not m:
            continue
        hexpart = m.group(1)[:39]   # 8 groups of 4 hex digits + 7 spaces
        out.append(hexpart.replace(" ", ""))
    h = "".join(out).lower()
    return h or None


POINTER = re.compile(r" @ 0x[0-9a-fA-F]+")
ADDR = re.compile(r"0x[0-9a-fA-F]{8,}")


def clean_error(line, path):
    line = line.rstrip()
    if path:
        line = line.replace(path, os.path.basename(path))
        line = line.replace(os.path.abspath(path), os.path.basename(path))
    line = POINTER.sub("", line)
    line = ADDR.sub("0x?", line)
    return line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", required=True, help="fixture path as given to ffprobe")
    ap.add_argument("--rc", type=int, required=True)
    ap.add_argument("--main", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--log", required=True)
    a = ap.parse_args()

    def load(p):
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                txt = f.read()
            return json.loads(txt) if txt.strip() else {}
        except (OSError, ValueError):
            return {}

    main_j = load(a.main)
    data_j = load(a.data)
    with open(a.log, encoding="utf-8", errors="replace") as f:
        errors = [clean_error(l, a.file) for l in f if l.strip()]

    fmt = main_j.get("format", {}) or {}
    streams = main_j.get("streams", []) or []
    audio = sorted((s for s in streams if s.get("codec_type") == "audio"),
                   key=lambda s: s.get("index", 0))
    st = audio[0] if audio else None

    stream_out = None
    packets_out = []
    skip_samples = None
    discard_padding = None
    inexact = False
    any_null = False
    if st is not None:
        idx = st.get("index", 0)
        rate = to_int(st.get("sample_rate"))
        channels = to_int(st.get("channels"))
        bps = to_int(st.get("bits_per_sample"))
        codec = st.get("codec_name")
        block_align = to_int(st.get("block_align"))
        if block_align is None and codec and codec.startswith("pcm_") and bps and channels:
            block_align = channels * bps // 8
        extradata = None
        for ds in (data_j.get("streams", []) or []):
            if ds.get("index") == idx:
                extradata = hexdump_to_hex(ds.get("extradata"))
        tb = st.get("time_base") or "1/1"
        num, den = (int(x) for x in tb.split("/"))
        layout = st.get("channel_layout")
        stream_out = {
            "codec_name": codec,
            "codec_tag_string": st.get("codec_tag_string"),
            "profile": st.get("profile"),
            "sample_fmt": st.get("sample_fmt"),
            "sample_rate": rate,
            "channels": channels,
            "channel_layout": layout,
            "bits_per_sample": bps,
            "bits_per_raw_sample": to_int(st.get("bits_per_raw_sample")),
            "block_align": block_align,
            "time_base": tb,
            "duration_ts": to_int(st.get("duration_ts")),
            "nb_frames": to_int(st.get("nb_frames")),
            "extradata_hex": extradata,
            "tags": st.get("tags", {}) or {},
        }

        def frames(d):
            nonlocal inexact
            d = to_int(d)
            if d is None or not rate:
                return None
            v = Fraction(d * num * rate, den)
            if v.denominator != 1:
                inexact = True
            return int(round(v))

        mine = [p for p in (main_j.get("packets", []) or []) if p.get("stream_index") == idx]

        def side(p, key):
            for sd in p.get("side_data_list", []) or []:
                if sd.get("side_data_type") == "Skip Samples" and key in sd:
                    return to_int(sd.get(key))
            return None

        if mine:
            skip_samples = side(mine[0], "skip_samples")
            discard_padding = side(mine[-1], "discard_padding")
        for p in mine:
            dur = frames(p.get("duration"))
            if dur is None:
                any_null = True
            packets_out.append([to_int(p.get("pos")), to_int(p.get("size")), dur])

    ok = a.rc == 0 and st is not None
    if inexact:
        errors.append("normalize_ffprobe: packet duration not a whole number of sample frames; rounded")

    last = packets_out[-1] if packets_out else None
    summary = {
        "packets": len(packets_out),
        "first_pos": packets_out[0][0] if packets_out else None,
        "bytes": sum(p[1] or 0 for p in packets_out),
        "duration_sum": (None if any_null else sum(p[2] for p in packets_out)),
        "last_end": (last[0] + last[1]) if last and last[0] is not None and last[1] is not None else None,
    }
    if skip_samples is not None:
        summary["skip_samples"] = skip_samples
    if discard_padding is not None:
        summary["discard_padding"] = discard_padding
    out = {
        "file": os.path.basename(a.file),
        "ok": ok,
        "format_name": fmt.get("format_name"),
        "format_tags": fmt.get("tags", {}) or {},
        "stream": stream_out,
        "summary": summary,
        "packets": packets_out,
        "errors": errors,
    }
    text = json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False)
    # one packet per line: [pos, size, frames]
    text = re.sub(r"\[\n\s+(-?\d+|null),\n\s+(-?\d+|null),\n\s+(-?\d+|null)\n\s+\]",
                  r"[\1, \2, \3]", text)
    print(text)


if __name__ == "__main__":
    main()
