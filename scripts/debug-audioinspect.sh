#!/usr/bin/env bash
# Prints the path of a debug audioinspect whose test hooks the loopback test scripts can use (they are
# compiled into debug builds only; docs/cli.md, "Test hooks"): the one given, or the package's debug
# build, made here (`audioinspect` and its HTTP helper `audioinspect-http`). Fails with a message when
# the binary or the helper next to it has no hooks (a release build would silently test less).
#
#   inspect=$(scripts/debug-audioinspect.sh [path/to/audioinspect]) || exit 1
set -euo pipefail
cd "$(dirname "$0")/.."
inspect=${1:-}
if [ -z "$inspect" ]; then
    swift build --product audioinspect >&2
    swift build --product audioinspect-http >&2
    inspect="$(swift build --show-bin-path)/audioinspect"
fi
if ! grep -aq AUDIOINSPECT_TEST_RECV_SEED "$inspect" \
    || ! grep -aq AUDIOINSPECT_TEST_CA_FILE "$(dirname "$inspect")/audioinspect-http"; then
    echo "$inspect or the audioinspect-http next to it has no test hooks (a release build?): use a debug" \
        "build (swift build)" >&2
    exit 1
fi
echo "$inspect"
