#!/usr/bin/env bash
# Side-by-side comparison of audioinspect with ffprobe -count_packets and ffmpeg -c copy -f null on the
# 60-minute benchmark inputs (issue 7). Prints markdown tables (see docs/performance.md).
#
#   scripts/compare-ffprobe.sh [--runs N] [--formats mp3cbr,wav,...] [--markdown FILE] [--no-build]
#                              [--page-cache read|as-is]
#
# Builds audioinspect in release (or uses $AUDIOINSPECT), makes the inputs with
# Benchmarks/make-inputs.sh when missing (or uses $AUDIO_BENCH_INPUTS), then runs
# scripts/compare_ffprobe.py: a warm-up, then N (default 10) interleaved rounds of
# audioinspect / ffprobe / ffmpeg per file, wall time and peak RSS (wait4) of each whole process, plus
# audioinspect's peak RSS reading the file from standard input, and the packet-count check. Before its
# runs each input is dropped from the page cache and read through once (`--page-cache as-is` keeps the
# cache as found; docs/performance.md, "Session 14", says why it matters).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
inputs=${AUDIO_BENCH_INPUTS:-$repo/Benchmarks/.inputs}
length=${AUDIO_BENCH_LONG:-60m}
build=1
pass=()
make=()
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --formats) pass+=("$1" "$2"); make+=(--formats "$2"); shift 2 ;;
        --runs|--markdown|--page-cache) pass+=("$1" "$2"); shift 2 ;;
        -h|--help) sed -n 2,15p "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

command -v ffprobe >/dev/null || { echo "ffprobe missing: apt-get install ffmpeg" >&2; exit 1; }

if [ -z "${AUDIOINSPECT:-}" ]; then
    if [ $build = 1 ]; then
        # The Swift runtime linked statically: audioinspect then maps no libswiftCore & co. (about 2 MB
        # less resident memory; docs/performance.md).
        (cd "$repo" && swift build -c release --static-swift-stdlib --product audioinspect >&2)
    fi
    AUDIOINSPECT=$(cd "$repo" && swift build -c release --show-bin-path)/audioinspect
fi
[ -x "$AUDIOINSPECT" ] || { echo "no audioinspect at $AUDIOINSPECT" >&2; exit 1; }

if [ -z "${AUDIO_BENCH_INPUTS:-}" ]; then
    # Only the formats compared (and what they are remuxed from), when --formats is given.
    "$repo/Benchmarks/make-inputs.sh" --out "$inputs" --minutes "${length%m}" "${make[@]}" >&2
fi

# The process launcher that measures wall time and peak RSS (see spawn_measure.c for why not Python).
spawn=$repo/.build/spawn_measure
if [ ! -x "$spawn" ] || [ "$repo/scripts/spawn_measure.c" -nt "$spawn" ]; then
    mkdir -p "$repo/.build"
    ${CC:-cc} -O2 -o "$spawn" "$repo/scripts/spawn_measure.c"
fi

echo "audioinspect: $AUDIOINSPECT" >&2
echo "machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "ffprobe: $(ffprobe -version | head -1)" >&2
exec python3 "$repo/scripts/compare_ffprobe.py" --audioinspect "$AUDIOINSPECT" --inputs "$inputs" \
    --length "$length" --spawn "$spawn" "${pass[@]}"
