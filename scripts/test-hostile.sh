#!/usr/bin/env bash
# The hostile-server and changing-file suite of issue 21 (scripts/test_hostile.py): audioinspect against
# loopback servers that misbehave on purpose (negative lengths, endless headers, title floods, request
# splitting through redirects, stalled connections, bombs, bad certificates …) and against files that
# shrink, grow or have hostile names. Every server listens on 127.0.0.1, is bounded in bytes and time
# and stops by itself. About 1.5 minutes. docs/testing.md, "Hostile servers and changing files".
#
# Needs python3 (standard library only) and openssl (the TLS cases make their own certificates); both
# are installed with apt when missing. Usage: scripts/test-hostile.sh [path/to/audioinspect] [--only REGEX]
# (a debug build: some cases use its test hooks, docs/cli.md).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "test-hostile.sh: ${missing[*]} missing and this user cannot install them (not root, no sudo)" >&2
            exit 1
        fi
    fi
    command -v apt-get >/dev/null 2>&1 || { echo "test-hostile.sh: install ${missing[*]} (no apt-get)" >&2; exit 1; }
    echo "== installing ${missing[*]} (for scripts/test_hostile.py)"
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || {
        $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    } || { echo "test-hostile.sh: could not install ${missing[*]}" >&2; exit 1; }
fi

inspect=""
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
    inspect=$1
    shift
fi
inspect=$(scripts/debug-audioinspect.sh "$inspect")
exec python3 scripts/test_hostile.py --binary "$inspect" "$@"
