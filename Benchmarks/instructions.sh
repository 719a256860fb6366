#!/usr/bin/env bash
# Counts the instructions `audioinspect` executes on each benchmark input (valgrind's callgrind):
# a figure that does not depend on the machine's load, for before/after comparisons of a change.
#
#   Benchmarks/instructions.sh BINARY [INPUT_DIR] [--chunk-size N]
#
# BINARY is a release `audioinspect` (swift build -c release --product audioinspect). INPUT_DIR holds
# the inputs of make-inputs.sh (default Benchmarks/.inputs; `make-inputs.sh --minutes 10 --out DIR`
# makes smaller ones). Prints one line per input: name, instructions, instructions per input byte.
set -euo pipefail
bin=${1:?usage: instructions.sh BINARY [INPUT_DIR] [--chunk-size N]}
dir=${2:-$(cd "$(dirname "$0")" && pwd)/.inputs}
shift $(( $# >= 2 ? 2 : 1 ))
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
for f in "$dir"/*-10m.* "$dir"/*-60m.*; do
    [ -e "$f" ] || continue
    case "$f" in *source-*) continue ;; esac
    total=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --no-progress "$@" "$f" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    size=$(stat -c %s "$f")
    printf '%-22s %14s  %8.3f/byte\n' "$(basename "$f")" "$total" "$(echo "$total / $size" | bc -l)"
done
