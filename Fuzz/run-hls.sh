#!/usr/bin/env bash
# Fuzzes AudioStreamHLS's playlist parser (docs/fuzzing.md, docs/hls.md "Fuzzing"): one binary from the
# playlist sources and Fuzz/Sources/FuzzHLS/Entry.swift (libFuzzer + AddressSanitizer), seeded with every
# playlist under Fixtures/hls/ and the RFC 8216 examples of the tests, with a dictionary of the tags.
#
#     Fuzz/run-hls.sh [SECONDS]        default 60; prints libFuzzer's final figures
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
seconds="${1:-60}"
bin="$here/.build-fuzz"
mkdir -p "$bin" "$here/.corpus/FuzzHLSPlaylist" "$here/.seeds/FuzzHLSPlaylist" "$here/.artifacts/FuzzHLSPlaylist" \
    "$here/.logs"
hls="$root/Sources/AudioStreamHLS"
sources="$hls/Playlist/*.swift $hls/HLSError.swift $hls/Session/PackedAudioTimestamp.swift $here/Sources/FuzzHLS/Entry.swift"
# shellcheck disable=SC2086
if [ ! -x "$bin/FuzzHLSPlaylist" ] || [ -n "$(find $sources -newer "$bin/FuzzHLSPlaylist" | head -1)" ]; then
    echo "building Fuzz/.build-fuzz/FuzzHLSPlaylist"
    # shellcheck disable=SC2086
    nice -n 10 swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name AudioStreamHLSFuzz \
        -swift-version 6 $sources -o "$bin/FuzzHLSPlaylist.tmp" 2>&1 \
        | { grep -v 'ld.gold: warning: Cannot export local symbol' || true; }
    mv "$bin/FuzzHLSPlaylist.tmp" "$bin/FuzzHLSPlaylist"
fi
i=0
for f in $(find "$root/Fixtures/hls" -name '*.m3u8'); do cp "$f" "$here/.seeds/FuzzHLSPlaylist/seed$i.m3u8"; i=$((i + 1)); done
"$bin/FuzzHLSPlaylist" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=64 -timeout=10 -max_len=8192 \
    -dict="$here/Dictionaries/FuzzHLSPlaylist.dict" -artifact_prefix="$here/.artifacts/FuzzHLSPlaylist/" \
    "$here/.corpus/FuzzHLSPlaylist" "$here/.seeds/FuzzHLSPlaylist" 2>&1 | tee "$here/.logs/FuzzHLSPlaylist.log" | tail -12
