#!/usr/bin/env bash
# The whole test suite, as CI runs it: the formatting check, then build everything (library, CLI,
# test support) with no warnings in this project's own sources, build the DocC documentation with no
# warnings, then run every test.
#
# Needs the Swift toolchain and libogg-dev (installed below when missing): fixtures and their
# ffprobe oracle JSON are committed, so no encoder or ffprobe is needed to test. (To regenerate
# fixtures: Fixtures/generate.sh, which installs its Debian packages.) The hostile-server suite
# (scripts/test-hostile.sh, loopback only) needs python3 and openssl, which it installs with apt when
# missing. The package's dependencies (AsyncHTTPClient, SwiftNIO, swift-nio-ssl, for the CLI only) are
# fetched by SwiftPM from GitHub, or from a local mirror where git's url.insteadOf points. The loopback
# streaming test at
# the end (scripts/test-streaming.sh) installs icecast2, nginx, ffmpeg, curl and python3 with apt when
# they are missing, and is skipped with a message when they cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
    echo "test.sh: the Swift toolchain (swift) is not on PATH" >&2
    exit 1
fi

# Tests/OggReferenceTests compares the Ogg parser with libogg (a system library found through
# pkg-config "ogg"): install Debian's libogg-dev when it is missing.
if ! pkg-config --exists ogg 2>/dev/null; then
    echo "== installing libogg-dev and pkg-config (for Tests/OggReferenceTests)"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "test.sh: libogg-dev is missing and this user cannot install it (not root, no sudo):" >&2
            echo "         install libogg-dev and pkg-config (apt-get install libogg-dev pkg-config)" >&2
            exit 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "test.sh: libogg-dev is missing and apt-get is not available: install libogg (pkg-config ogg)" >&2
        exit 1
    fi
    $sudo apt-get install -y libogg-dev pkg-config || {
        $sudo apt-get update && $sudo apt-get install -y libogg-dev pkg-config
    } || {
        echo "test.sh: could not install libogg-dev and pkg-config" >&2
        exit 1
    }
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Formatting: swift-format (in the toolchain) with .swift-format, --strict; fails on any finding.
# scripts/format.sh fixes them (CONTRIBUTING.md, "Formatting").
echo "== scripts/format.sh --lint"
scripts/format.sh --lint

echo "== swift build --build-tests"
swift build --build-tests 2>&1 | tee "$log"
# Warnings in our own code fail the build (dependencies are not ours to fix).
if grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$log" >/dev/null; then
    echo "test.sh: the build has warnings in this project's sources:" >&2
    grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$log" | sort -u >&2
    exit 1
fi

# The DocC documentation builds without a warning (from the symbol graphs of the build above).
echo "== scripts/docs.sh"
scripts/docs.sh

echo "== swift test"
swift test --skip-build 2>&1 | tee "$log"

# Hostile servers and files that change under us (issue 21), on loopback: about 1.5 minutes.
echo "== scripts/test-hostile.sh"
scripts/test-hostile.sh "$(swift build --show-bin-path)/audioinspect"

# Real servers on loopback (Icecast + ffmpeg, nginx): see the script's header. Skipped with a message
# when its Debian packages cannot be installed; SKIP_STREAMING_TESTS=1 skips it on purpose.
if [ "${SKIP_STREAMING_TESTS:-0}" != 1 ]; then
    echo "== scripts/test-streaming.sh"
    scripts/test-streaming.sh "$(swift build --show-bin-path)/audioinspect"
fi
