#!/usr/bin/env bash
# Load-independent check that 1-byte feeding costs the same per byte at 15 s and at 60 s of input:
# counts instructions with valgrind's callgrind (the same count whatever else the machine does) for
# `audioinspect --chunk-size 1` on the <format>-15s and <format>-60s inputs, minus the start-up count of
# `audioinspect --help`, and prints instructions per byte and their ratio (1.00 = linear).
#
#   Benchmarks/linearity.sh [format ...]      (default: mp3cbr mp3vbr adts m4a vorbis opus)
#
# Slow: valgrind runs ~50x slower than native; the compressed 15 s + 60 s inputs take about a minute each
# format, PCM and FLAC (10 MB at 60 s) several minutes. Needs valgrind and a release audioinspect
# ($AUDIOINSPECT, else `swift build -c release` in the repository).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
inputs=${AUDIO_BENCH_INPUTS:-$repo/Benchmarks/.inputs}
if [ -z "${AUDIOINSPECT:-}" ]; then
    (cd "$repo" && swift build -c release --product audioinspect >&2)
    AUDIOINSPECT=$(cd "$repo" && swift build -c release --show-bin-path)/audioinspect
fi
[ -n "${AUDIO_BENCH_INPUTS:-}" ] || "$repo/Benchmarks/make-inputs.sh" >&2
formats=("$@")
[ ${#formats[@]} -gt 0 ] || formats=(mp3cbr mp3vbr adts m4a vorbis opus)
declare -A ext=([mp3cbr]=mp3 [mp3vbr]=mp3 [adts]=aac [m4a]=m4a [wav]=wav [caf]=caf [aiff]=aiff [flac]=flac
    [vorbis]=ogg [opus]=opus)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # instructions of: audioinspect ARGS...
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$AUDIOINSPECT" "$@" >"$tmp/stdout" 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        return 1
    }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err"
}
base=$(count --help)
echo "| format | instr/byte 15 s | instr/byte 60 s | 60 s / 15 s |"
echo "| --- | ---: | ---: | ---: |"
for f in "${formats[@]}"; do
    a=$inputs/$f-15s.${ext[$f]}
    b=$inputs/$f-60s.${ext[$f]}
    ia=$(count --no-progress --chunk-size 1 "$a")
    ib=$(count --no-progress --chunk-size 1 "$b")
    python3 -c "
import os
a = ($ia - $base) / os.path.getsize('$a'); b = ($ib - $base) / os.path.getsize('$b')
print(f'| $f | {a:.0f} | {b:.0f} | {b / a:.2f} |')"
done
