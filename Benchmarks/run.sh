#!/usr/bin/env bash
# Runs the in-process benchmarks and prints the summary tables of docs/performance.md.
#
#   Benchmarks/run.sh [extra `swift package benchmark` options, e.g. --filter 'mp3cbr.*|wav.*']
#
# The plugin's --filter must match a benchmark's whole name ("webm 60m 64KiB"): 'webm' alone matches
# nothing (and the run prints no result), 'webm.*' matches every WebM benchmark.
#
# Makes the inputs when missing (make-inputs.sh), runs `swift package benchmark` (release build) with
# influx output saved to Benchmarks/.results/<UTC time>.influx (gitignored) and the full ordo-one text
# tables to the .txt next to it, then summarize.py over it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ -n "${AUDIO_BENCH_INPUTS:-}" ] || ./make-inputs.sh >&2
mkdir -p .results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
swift package benchmark --no-progress --format influx --path stdout "$@" 2>&1 \
    | tee ".results/$stamp.log" | grep '^ParserBenchmarks,' > ".results/$stamp.influx" || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The plugin reports a benchmark executable that died as "One or more benchmark suites crashed during
# runtime." (no "error"): show that too, and say so when no result line came out at all.
if grep -qiE 'error|failed|crash' ".results/$stamp.log"; then
    grep -iE 'error|failed|crash' ".results/$stamp.log" >&2
fi
if [ ! -s ".results/$stamp.influx" ]; then
    echo "no benchmark results: see Benchmarks/.results/$stamp.log; a --filter must match whole names" \
        "('webm.*', not 'webm')" >&2
    exit 1
fi
echo "results: Benchmarks/.results/$stamp.influx" >&2
python3 summarize.py ".results/$stamp.influx"
