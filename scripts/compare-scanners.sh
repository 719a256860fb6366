#!/usr/bin/env bash
# audioinspect as a library scanner, against the tools people scan libraries with (issue 20): an ffprobe
# loop (one process per file), mediainfo over all files, exiftool -r, and mutagen (Python).
#
#   scripts/compare-scanners.sh [--files N] [--out DIR] [--runs N] [--ffprobe-sample N] [--no-build]
#
# 1. Builds audioinspect in release (static Swift runtime, as scripts/compare-ffprobe.sh; or uses
#    $AUDIOINSPECT) and installs mediainfo, exiftool (Debian) and mutagen (pip) when missing.
# 2. Builds a library of about N files (default 3000) in DIR/library (default .build/compare-scanners):
#    copies of every fixture (Fixtures/, not malformed/) and of the 15 s and 60 s benchmark inputs
#    (Benchmarks/make-inputs.sh --minutes 1, made when missing), under varied directory and file
#    names (spaces, quotes, non-ASCII), each copy retagged by mutagen with its own title, artist,
#    album and track number where the format takes tags.
# 3. Warms the page cache (every file read once), then times each tool over the whole library,
#    N runs each (default 3, the best wall time kept, with its CPU time): audioinspect --jsonl -r (all cores), the same with --quick,
#    mediainfo --Output=JSON DIR, exiftool -json -r DIR, a mutagen script; and ffprobe -show_format
#    -show_streams -of json once per file over a sample of M files (default 300; its per-file cost does
#    not depend on the library's size, and the whole library would take minutes).
# 4. scripts/compare_scanners.py prints per-file times, the ratios against the goals (>= 50x ffprobe,
#    >= 10x mediainfo and exiftool, >= 5x mutagen), and the agreement of format, duration (1 % or
#    50 ms) and tags (title, artist, album) between audioinspect and each tool, with a table of the
#    disagreements by kind and an example of each.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/.build/compare-scanners
files=3000
runs=3
sample=300
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --files) files=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --ffprobe-sample) sample=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n 2,23p "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
command -v ffprobe >/dev/null || need+=(ffmpeg)
command -v mediainfo >/dev/null || need+=(mediainfo)
command -v exiftool >/dev/null || need+=(libimage-exiftool-perl)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}" >&2
    as_root apt-get update -qq && as_root apt-get install -y -qq "${need[@]}" >/dev/null
fi
python3 -c 'import mutagen' 2>/dev/null || python3 -m pip install -q mutagen >&2

if [ -z "${AUDIOINSPECT:-}" ]; then
    if [ $build = 1 ]; then
        (cd "$repo" && swift build -c release --static-swift-stdlib --product audioinspect >&2)
    fi
    AUDIOINSPECT=$(cd "$repo" && swift build -c release --show-bin-path)/audioinspect
fi
[ -x "$AUDIOINSPECT" ] || { echo "no audioinspect at $AUDIOINSPECT" >&2; exit 1; }

mkdir -p "$out"
inputs=$out/inputs
if [ ! -s "$inputs/mp3cbr-60s.mp3" ]; then
    "$repo/Benchmarks/make-inputs.sh" --out "$inputs" --minutes 1 >&2
fi
library=$out/library
python3 "$repo/scripts/compare_scanners.py" make-library --fixtures "$repo/Fixtures" --inputs "$inputs" \
    --library "$library" --files "$files" >&2

echo "warming the page cache" >&2
find "$library" -type f -exec cat {} + > /dev/null

results=$out/results
rm -rf "$results"
mkdir -p "$results"
# best_of NAME COMMAND...: runs the command $runs times (standard output to $results/NAME.out), keeps the
# best wall time in $results/NAME.seconds and the CPU time (user + system, all threads and children) of
# that run in $results/NAME.cpu: on a loaded machine the CPU time is the steadier figure.
best_of() {
    local name=$1; shift
    local best="" cpu=""
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$results/$name.time" -f "%e %U %S" "$@" > "$results/$name.out" 2> "$results/$name.err" || true
        read -r wall user sys < <(tail -1 "$results/$name.time")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $wall < $best else 1)"; then
            best=$wall
            cpu=$(python3 -c "print($user + $sys)")
        fi
    done
    echo "$best" > "$results/$name.seconds"
    echo "$cpu" > "$results/$name.cpu"
    echo "$name: $best s wall, $cpu s CPU" >&2
}

echo "machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
best_of audioinspect "$AUDIOINSPECT" --jsonl -r --no-progress "$library"
best_of audioinspect-quick "$AUDIOINSPECT" --jsonl -r --quick --no-progress "$library"
best_of mediainfo mediainfo --Output=JSON "$library"
best_of exiftool exiftool -json -n -r -q -q "$library"
best_of mutagen python3 "$repo/scripts/compare_scanners.py" mutagen "$library"

# ffprobe: one process per file, over every (files / sample)-th file of the library (sorted).
find "$library" -type f | LC_ALL=C sort | awk -v n="$(find "$library" -type f | wc -l)" -v m="$sample" \
    'BEGIN { step = n / m; if (step < 1) step = 1; next_i = 0 } NR - 1 >= next_i { print; next_i += step }' \
    > "$results/ffprobe.files"
cat > "$results/ffprobe-loop.sh" <<'LOOP'
while IFS= read -r f; do
    printf '%s\0' "$f"
    ffprobe -v error -show_format -show_streams -of json "$f" 2>/dev/null || echo '{}'
    printf '\0'
done < "$1"
LOOP
runs_saved=$runs
runs=1
best_of ffprobe bash "$results/ffprobe-loop.sh" "$results/ffprobe.files"
runs=$runs_saved

python3 "$repo/scripts/compare_scanners.py" report --library "$library" --results "$results" \
    --audioinspect "$AUDIOINSPECT"
