#!/usr/bin/env bash
# The whole test suite, as CI runs it: build everything (library, CLI, test support) with no
# warnings in this project's own sources, then run every test.
#
# Needs only the Swift toolchain: fixtures and their ffprobe oracle JSON are committed, so no
# encoder or ffprobe is needed to test. (To regenerate fixtures: Fixtures/generate.sh, which
# installs its Debian packages.)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
    echo "test.sh: the Swift toolchain (swift) is not on PATH" >&2
    exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== swift build --build-tests"
swift build --build-tests 2>&1 | tee "$log"
# Warnings in our own code fail the build (dependencies are not ours to fix).
if grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$log" >/dev/null; then
    echo "test.sh: the build has warnings in this project's sources:" >&2
    grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$log" | sort -u >&2
    exit 1
fi

echo "== swift test"
swift test --skip-build 2>&1 | tee "$log"
