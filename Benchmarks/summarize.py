#!/usr/bin/env python3
"""Turns `swift package benchmark --format influx --path stdout` output into the summary tables of
docs/performance.md.

    python3 Benchmarks/summarize.py RESULTS.influx [MORE.influx ...] [--inputs Benchmarks/.inputs]

With several result files (runs on a busy machine), each figure is the best over the runs (highest
MB/s and packets/s, lowest ps/byte, slowdown and malloc count), for the median and the best alike.

Per benchmark it takes the median (p50) and the best value (p0: ordo-one/benchmark orders percentiles
from best to worst, so p0 is the highest MB/s and the lowest ps/byte) of each metric. Mallocs per MB
divide the per-iteration malloc count (one iteration = one whole-input parse) by the input size.
"""

import argparse
import collections
import os
import sys

FORMATS = [("mp3cbr", "mp3"), ("mp3vbr", "mp3"), ("adts", "aac"), ("m4a", "m4a"), ("wav", "wav"),
           ("caf", "caf"), ("aiff", "aiff"), ("flac", "flac"), ("vorbis", "ogg"), ("opus", "opus"),
           ("webm", "webm"), ("mka", "mka")]
EXT = dict(FORMATS)
TARGETS = {  # issue 7, in-process at 64 KiB chunks
    "mp3cbr": ("packets", 20e6), "mp3vbr": ("packets", 20e6), "adts": ("packets", 20e6),
    "m4a": ("packets", 20e6), "vorbis": ("packets", 20e6), "opus": ("packets", 20e6),
    "wav": ("bytes", 10e9), "caf": ("bytes", 10e9), "aiff": ("bytes", 10e9), "flac": ("bytes", 2e9),
    "webm": ("packets", 20e6),  # issue 18 (Opus in WebM); MKA/FLAC has no in-process target
}


LARGER_IS_BETTER = {"MB/s", "packets/s"}


def load(paths):
    # values[test][metric][percentile] = best value over the files
    values = collections.defaultdict(lambda: collections.defaultdict(dict))
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split(",")
                if len(parts) < 15 or parts[0] != "ParserBenchmarks":
                    continue
                metric, test, percentile, value = parts[6], parts[8], float(parts[9]), float(parts[10])
                old = values[test][metric].get(percentile)
                if old is not None:
                    value = max(old, value) if metric in LARGER_IS_BETTER else min(old, value)
                values[test][metric][percentile] = value
    return values


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="+")
    ap.add_argument("--inputs", default=os.environ.get("AUDIO_BENCH_INPUTS", os.path.join(here, ".inputs")))
    args = ap.parse_args()
    v = load(args.results)
    if len(args.results) > 1:
        print(f"Best of {len(args.results)} runs per figure.\n")

    def size(name, length):
        p = os.path.join(args.inputs, f"{name}-{length}.{EXT[name]}")
        return os.path.getsize(p) if os.path.exists(p) else None

    def get(test, metric, pct):
        return v.get(test, {}).get(metric, {}).get(pct)

    out = []
    out.append("In-process parse from memory of the 60-minute inputs (median / best of the iterations).")
    out.append("")
    out.append("| format | MB | chunk | MB/s | M packets/s | mallocs per parse | mallocs per MB | target (64 KiB) |")
    out.append("| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |")
    long_tests = sorted({t for t in v if " 60m " in t or t.split(" ")[1].endswith("m")})
    for name, _ in FORMATS:
        for chunk in ("1KiB", "64KiB", "1MiB", "whole"):
            test = next((t for t in long_tests if t.startswith(name + " ") and t.endswith(" " + chunk)), None)
            if not test:
                continue
            length = test.split(" ")[1]
            mb = (size(name, length) or 0) / 1e6
            mbs, mbs_best = get(test, "MB/s", 50.0), get(test, "MB/s", 0.0)
            pps, pps_best = get(test, "packets/s", 50.0), get(test, "packets/s", 0.0)
            mallocs = get(test, "Malloc(total)", 50.0)
            target = ""
            if chunk == "64KiB" and name in TARGETS:
                kind, goal = TARGETS[name]
                best = pps_best if kind == "packets" else (mbs_best or 0) * 1e6
                if best:
                    unit = "M packets/s" if kind == "packets" else "GB/s"
                    scale = 1e6 if kind == "packets" else 1e9
                    verdict = "met" if best >= goal else f"missed, {goal / best:.1f}x short"
                    target = f"{goal / scale:g} {unit}: {verdict}"
            out.append(
                f"| {name} | {mb:.0f} | {chunk} | {mbs:.0f} / {mbs_best:.0f} "
                f"| {pps / 1e6:.2f} / {pps_best / 1e6:.2f} | {mallocs:.0f} "
                f"| {mallocs / mb:.2f} | {target} |" if mbs is not None and mb else f"| {name} | | {chunk} | n/a |")
    out.append("")
    out.append("1-byte feeding (median / best). Linear when ps/byte at 60 s equals ps/byte at 15 s; "
               "'x 64 KiB' = time per byte at 1-byte chunks / at 64 KiB chunks of the same input (target <= 30x).")
    out.append("")
    out.append("| format | ps/byte 15 s | ps/byte 60 s | 60 s / 15 s | x 64 KiB 15 s | x 64 KiB 60 s "
               "| mallocs per MB 15 s | mallocs per MB 60 s | 30x target |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, _ in FORMATS:
        a, b = f"{name} 15s 1B", f"{name} 60s 1B"
        if a not in v or b not in v:
            continue
        pa, pb = get(a, "ps/byte", 50.0), get(b, "ps/byte", 50.0)
        pa0, pb0 = get(a, "ps/byte", 0.0), get(b, "ps/byte", 0.0)
        xa, xb = get(a, "x64KiB(x100)", 50.0), get(b, "x64KiB(x100)", 50.0)
        xa0, xb0 = get(a, "x64KiB(x100)", 0.0), get(b, "x64KiB(x100)", 0.0)
        ma, mb_ = get(a, "Malloc(total)", 50.0), get(b, "Malloc(total)", 50.0)
        sa, sb = size(name, "15s"), size(name, "60s")
        worst = max(xa0 or 0, xb0 or 0) / 100
        verdict = "met" if worst <= 30 else f"missed ({worst:.0f}x)"
        out.append(
            f"| {name} | {pa:.0f} / {pa0:.0f} | {pb:.0f} / {pb0:.0f} | {pb0 / pa0:.2f} "
            f"| {xa / 100:.0f}x / {xa0 / 100:.0f}x | {xb / 100:.0f}x / {xb0 / 100:.0f}x "
            f"| {ma / (sa / 1e6):.0f} | {mb_ / (sb / 1e6):.0f} | {verdict} |")
    print("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())
