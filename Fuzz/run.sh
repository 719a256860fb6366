#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs them.
#   Fuzz/run.sh --seconds N [harness…]   run each harness N seconds (default 60) on a corpus seeded from Fixtures/
#   Fuzz/run.sh --regressions            replay Fuzz/FailCases/<harness>/* once each
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds=60
mode=fuzz
harnesses=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --regressions) mode=regressions; shift ;;
        *) harnesses+=("$1"); shift ;;
    esac
done
[ ${#harnesses[@]} -gt 0 ] || harnesses=(FuzzAny FuzzChunking)
export SWIFT_BACKTRACE=enable=no
cd "$here"
# Each harness is compiled with the library's sources as one module: SwiftPM executables expect a
# `main` that -parse-as-library removes, and libFuzzer brings its own.
mkdir -p "$here/.build-fuzz"
bin="$here/.build-fuzz"
sources=$(find "$here/../Sources/AudioStreamParsing" -name '*.swift' | sort)
for h in "${harnesses[@]}"; do
    if [ ! -x "$bin/$h" ] || [ -n "$(find "$here/../Sources/AudioStreamParsing" "$here/Sources/$h" -newer "$bin/$h" -name '*.swift' | head -1)" ]; then
        echo "building $h"
        swiftc -O -g -sanitize=fuzzer,address -parse-as-library -D FUZZ_SINGLE_MODULE -module-name "$h" \
            $sources "$here/Sources/$h/main.swift" -o "$bin/$h"
    fi
done
for h in "${harnesses[@]}"; do
    if [ "$mode" = regressions ]; then
        dir="$here/FailCases/$h"
        [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] || { echo "$h: no fail cases"; continue; }
        "$bin/$h" -runs=1 "$dir"/*
    else
        corpus="$here/.corpus/$h"
        mkdir -p "$corpus"
        find "$here/../Fixtures" -type f ! -name '*.json' ! -name '*.md' ! -name '*.sh' ! -name '*.py' \
            -size -256k -exec cp -n {} "$corpus/" \;
        dict=()
        [ -f "$here/Dictionaries/$h.dict" ] && dict=("-dict=$here/Dictionaries/$h.dict")
        "$bin/$h" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=262144 ${dict[@]+"${dict[@]}"} "$corpus"
    fi
done
