#!/usr/bin/env bash
# Builds the library's DocC documentation (Sources/AudioStreamParsing/AudioStreamParsing.docc plus the
# public API's doc comments) with the toolchain's docc, and fails on any warning: an unresolved symbol
# link, an undocumented parameter, a broken article reference. scripts/test.sh (so CI) runs it.
#
#   scripts/docs.sh                   build into .build-docs/AudioStreamParsing.doccarchive
#   DOCS_OUTPUT=DIR scripts/docs.sh   build into DIR/AudioStreamParsing.doccarchive
#
# Preview the archive with `docc preview Sources/AudioStreamParsing/AudioStreamParsing.docc
# --additional-symbol-graph-dir .build-docs/symbol-graphs`, or serve the archive's files (it is built
# for static hosting). No plugin or package dependency: the symbol graphs come from
# `swift package dump-symbol-graph`, which reuses the debug build (no extra compiler flags, so it does
# not invalidate what `swift build` and `swift test` built).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${DOCS_OUTPUT:-.build-docs}
catalog=Sources/AudioStreamParsing/AudioStreamParsing.docc

docc=$(command -v docc || true)
if [ -z "$docc" ] && command -v swift >/dev/null 2>&1; then
    candidate="$(dirname "$(command -v swift)")/docc"
    [ -x "$candidate" ] && docc=$candidate
fi
if [ -z "$docc" ] && command -v xcrun >/dev/null 2>&1; then
    docc=$(xcrun --find docc 2>/dev/null || true)
fi
if [ -z "$docc" ]; then
    echo "docs.sh: docc not found (it ships with the Swift toolchain, next to swift)" >&2
    exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# 1. Symbol graphs of the public API (what `swift package dump-symbol-graph` extracts from the built
# modules). The library's own graph and its extensions of other modules (AudioStreamParsing@_Concurrency:
# AsyncSequence.audioStreamEvents) are kept; the other targets' graphs are not documented here.
echo "== swift package dump-symbol-graph"
if ! swift package dump-symbol-graph --skip-inherited-docs --emit-extension-block-symbols >"$log" 2>&1; then
    cat "$log" >&2
    echo "docs.sh: swift package dump-symbol-graph failed" >&2
    exit 1
fi
graphs=$(sed -n 's/^Files written to //p' "$log" | tail -1)
if [ -z "$graphs" ] || [ ! -f "$graphs/AudioStreamParsing.symbols.json" ]; then
    cat "$log" >&2
    echo "docs.sh: no AudioStreamParsing.symbols.json in the dump-symbol-graph output" >&2
    exit 1
fi
rm -rf "$out/symbol-graphs" "$out/AudioStreamParsing.doccarchive"
mkdir -p "$out/symbol-graphs"
cp "$graphs"/AudioStreamParsing.symbols.json "$graphs"/AudioStreamParsing@*.symbols.json "$out/symbol-graphs/"

# 2. The archive. --warnings-as-errors makes docc exit non-zero on a warning; the grep catches any
# warning docc reports without failing.
echo "== docc convert $catalog"
status=0
"$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$out/symbol-graphs" \
    --fallback-display-name AudioStreamParsing \
    --fallback-bundle-identifier org.audiostreamparsing.AudioStreamParsing \
    --output-path "$out/AudioStreamParsing.doccarchive" \
    --warnings-as-errors >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || grep -Eq "(^|[^a-z])(warning|error):" "$log"; then
    cat "$log" >&2
    echo "docs.sh: docc reported the problems above (exit status $status)" >&2
    exit 1
fi
echo "docs.sh: $out/AudioStreamParsing.doccarchive (no warnings)"
