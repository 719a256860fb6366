#!/usr/bin/env bash
# Builds the libFuzzer binary (all harnesses in one) and runs harnesses. See docs/fuzzing.md.
#
#   Fuzz/run.sh --list                      list the harnesses
#   Fuzz/run.sh --build                     build only
#   Fuzz/run.sh --seconds N [harness…]      fuzz each harness N seconds (default 60; default: all harnesses),
#                                           one after the other, then print executions, cov, ft, corpus per harness
#   Fuzz/run.sh --smoke [harness…]          the nightly smoke run: every harness 60 s (FUZZ_SMOKE_SECONDS)
#   Fuzz/run.sh --regressions [harness…]    replay Fuzz/FailCases/<harness>/* once each, and Fixtures/malformed/*
#                                           through FuzzAny with -malloc_limit_mb=16 (exit 1 on a failure)
#   Fuzz/run.sh … -- -flag=value            extra libFuzzer flags (e.g. -- -jobs=2 -workers=2)
#
# Environment: FUZZ_RSS_MB (default 2048), FUZZ_MALLOC_MB (default 256), FUZZ_TIMEOUT (seconds per input,
# default 10), FUZZ_NICE (default 10).
# Per harness: corpus Fuzz/.corpus/<harness>/ (kept between runs), seeds Fuzz/.seeds/<harness>/ (made by
# Fuzz/seeds.py from Fixtures/), dictionary Fuzz/Dictionaries/<harness>.dict, log Fuzz/.logs/<harness>.log,
# findings Fuzz/.artifacts/<harness>/ (crash-*, oom-*, timeout-*, slow-unit-*).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
seconds=60
mode=fuzz
harnesses=()
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --smoke) mode=fuzz; seconds="${FUZZ_SMOKE_SECONDS:-60}"; shift ;;
        --regressions) mode=regressions; shift ;;
        --list) mode=list; shift ;;
        --build) mode=build; shift ;;
        --) shift; extra=("$@"); break ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) harnesses+=("$1"); shift ;;
    esac
done
rss="${FUZZ_RSS_MB:-2048}"
malloc="${FUZZ_MALLOC_MB:-256}"
timeout="${FUZZ_TIMEOUT:-10}"
nice="${FUZZ_NICE:-10}"

# Keep in the order of FuzzHarness.all (Tests/AudioStreamParsingTests/FuzzHarnesses/FuzzHarness.swift).
all=(FuzzAny FuzzChunking FuzzMPEG FuzzADTS FuzzWAVE FuzzAIFF FuzzCAF FuzzNeXT FuzzMP4 FuzzOgg FuzzFLAC
    FuzzID3v2 FuzzID3v1 FuzzAPEv2 FuzzVorbisComment FuzzMP4ItemList FuzzFLACPicture FuzzChunkText FuzzICY
    FuzzCodecHeaders FuzzMatroska FuzzAMR FuzzMPEGTS FuzzAC3 FuzzEBML FuzzChunkingMatroska FuzzLOAS)
if [ "$mode" = list ]; then printf '%s\n' "${all[@]}"; exit 0; fi
[ ${#harnesses[@]} -gt 0 ] || harnesses=("${all[@]}")
for h in "${harnesses[@]}"; do
    [[ " ${all[*]} " == *" $h "* ]] || { echo "run.sh: unknown harness $h (see --list)" >&2; exit 2; }
done
export SWIFT_BACKTRACE=enable=no

# One binary with every harness, compiled with the library's sources as one module (internal types
# reachable; libFuzzer brings its own main). Rebuilt when a source is newer than the binary.
bin="$here/.build-fuzz"
mkdir -p "$bin"
harness_dir="$root/Tests/AudioStreamParsingTests/FuzzHarnesses"
sources=$( (find "$root/Sources/AudioStreamParsing" "$harness_dir" -name '*.swift'
    echo "$root/Sources/AudioStreamTestSupport/OggPageBodies.swift"
    echo "$root/Sources/AudioStreamTestSupport/TSPayloadBytes.swift"
    echo "$here/Sources/FuzzMain/Entry.swift") | sort)
if [ ! -x "$bin/fuzz" ] || [ -n "$(find $sources -newer "$bin/fuzz" | head -1)" ]; then
    echo "building Fuzz/.build-fuzz/fuzz (-O, -sanitize=fuzzer,address; 2-4 minutes)"
    # shellcheck disable=SC2086
    nice -n "$nice" swiftc -O -g -sanitize=fuzzer,address -parse-as-library -D FUZZ_SINGLE_MODULE \
        -module-name AudioStreamParsingFuzz -package-name AudioStreamParsing -swift-version 6 \
        $sources -o "$bin/fuzz.tmp" 2>&1 | { grep -v 'ld.gold: warning: Cannot export local symbol' || true; }
    mv "$bin/fuzz.tmp" "$bin/fuzz"
fi
for h in "${all[@]}"; do ln -sf fuzz "$bin/$h"; done
[ "$mode" = build ] && exit 0

if [ "$mode" = regressions ]; then
    failed=0
    for h in "${harnesses[@]}"; do
        dir="$here/FailCases/$h"
        [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] || continue
        for f in "$dir"/*; do
            if "$bin/$h" -runs=1 -rss_limit_mb="$rss" -malloc_limit_mb="$malloc" -timeout="$timeout" "$f" \
                >"$bin/last-regression.log" 2>&1; then
                echo "ok    $h/$(basename "$f")"
            else
                echo "FAIL  $h/$(basename "$f")"; tail -20 "$bin/last-regression.log"; failed=1
            fi
        done
    done
    # The malformed inputs (many claim 4 GiB lengths or 2^31 entries) through FuzzAny with a 16 MiB cap on
    # any single allocation: an allocation sized from a length field fails here.
    if [[ " ${harnesses[*]} " == *" FuzzAny "* ]]; then
        # shellcheck disable=SC2046
        if "$bin/FuzzAny" -runs=1 -rss_limit_mb="$rss" -malloc_limit_mb=16 -timeout="$timeout" \
            $(find "$root/Fixtures/malformed" -type f ! -name '*.json' ! -name '*.md' | sort) \
            >"$bin/last-regression.log" 2>&1; then
            echo "ok    Fixtures/malformed/* through FuzzAny with -malloc_limit_mb=16"
        else
            echo "FAIL  Fixtures/malformed/* through FuzzAny with -malloc_limit_mb=16"; tail -20 "$bin/last-regression.log"
            failed=1
        fi
    fi
    exit $failed
fi

# Fuzzing: seeds, dictionary, limits; then a summary from libFuzzer's final lines.
python3 "$here/seeds.py" "$root/Fixtures" "$here/.seeds" "${harnesses[@]}"
cat "$here"/Dictionaries/*.dict | grep -v '^#' | sort -u >"$bin/all.dict"
mkdir -p "$here/.logs"
summary=()
findings=0
for h in "${harnesses[@]}"; do
    corpus="$here/.corpus/$h"
    artifacts="$here/.artifacts/$h"
    mkdir -p "$corpus" "$artifacts"
    dict="$here/Dictionaries/$h.dict"
    case "$h" in FuzzAny | FuzzChunking) dict="$bin/all.dict" ;; FuzzEBML | FuzzChunkingMatroska) dict="$here/Dictionaries/FuzzMatroska.dict" ;; esac
    case "$h" in
        FuzzChunking | FuzzChunkingMatroska) maxlen=65544 ;;
        FuzzAny | FuzzMPEG | FuzzADTS | FuzzWAVE | FuzzAIFF | FuzzCAF | FuzzNeXT | FuzzMP4 | FuzzOgg | FuzzFLAC | FuzzMatroska | FuzzMPEGTS | FuzzAC3 | FuzzAMR | FuzzEBML) maxlen=131072 ;;
        *) maxlen=65536 ;;
    esac
    args=(-max_total_time="$seconds" -rss_limit_mb="$rss" -malloc_limit_mb="$malloc" -timeout="$timeout"
        -max_len="$maxlen" -artifact_prefix="$artifacts/" -print_final_stats=1)
    [ -f "$dict" ] && args+=(-dict="$dict")
    before=$(find "$artifacts" -type f | wc -l)
    echo "== $h: ${seconds}s (log Fuzz/.logs/$h.log)"
    set +e
    nice -n "$nice" "$bin/$h" "${args[@]}" ${extra[@]+"${extra[@]}"} "$corpus" "$here/.seeds/$h" >"$here/.logs/$h.log" 2>&1
    rc=$?
    set -e
    after=$(find "$artifacts" -type f | wc -l)
    new=$((after - before))
    [ $rc -eq 0 ] || [ $new -gt 0 ] || new=1
    findings=$((findings + new))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$here/.logs/$h.log" | grep -o '[0-9]*$' | tail -1)
    last=$(grep -E '^#[0-9]+' "$here/.logs/$h.log" | tail -1)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || true)
    corp=$(echo "$last" | grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' | cut -d' ' -f2 || true)
    summary+=("$(printf '%-18s %12s %7s %7s %12s %4s' "$h" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$new")")
    [ $new -eq 0 ] || { echo "   FINDING(S) in Fuzz/.artifacts/$h/ (exit $rc):"; { grep -E 'ERROR|Fuzz[A-Za-z0-9]+: |Fatal|SUMMARY|Slowest unit' "$here/.logs/$h.log" || true; } | head -5; }
done
echo
printf '%-18s %12s %7s %7s %12s %4s\n' harness executions cov ft corpus new
printf '%s\n' "${summary[@]}"
[ $findings -eq 0 ]
