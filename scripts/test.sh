#!/usr/bin/env bash
# The whole test suite, as CI runs it: build everything (library, CLI, test support) with no
# warnings in this project's own sources, then run every test.
#
# Needs only the Swift toolchain for the Swift suites: fixtures and their ffprobe oracle JSON are
# committed, so no encoder or ffprobe is needed to test. (To regenerate fixtures: Fixtures/generate.sh,
# which installs its Debian packages.) The loopback streaming test at the end
# (scripts/test-streaming.sh) installs icecast2, nginx, ffmpeg, curl and python3 with apt when they are
# missing, and is skipped with a message when they cannot be installed.
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

# Real servers on loopback (Icecast + ffmpeg, nginx): see the script's header. Skipped with a message
# when its Debian packages cannot be installed; SKIP_STREAMING_TESTS=1 skips it on purpose.
if [ "${SKIP_STREAMING_TESTS:-0}" != 1 ]; then
    echo "== scripts/test-streaming.sh"
    scripts/test-streaming.sh "$(swift build --show-bin-path)/audioinspect"
fi
