#!/usr/bin/env bash
# Copies audio files that other projects ship for their own tests into Fixtures/external/: files we did
# not write, from writers we do not control (issue 15, "How to check"). Each comes from a Debian 12
# package, fetched with `apt-get download` (no installation) and unpacked with `dpkg-deb -x`.
#
#     Fixtures/fetch-external.sh && Fixtures/make-oracle.sh external/*
#
# Sources and licenses (the files are redistributed under their packages' terms, listed in
# Fixtures/README.md, "External files"):
#   libpython3.11-testsuite  CPython's Lib/test/audiodata (the `pluck` sound in WAVE, AIFF, AIFF-C and
#                            Sun .au, 8/16/24/32-bit PCM, µ-law, A-law); PSF License 2.0.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
cd "$T"
apt-get download libpython3.11-testsuite >/dev/null
dpkg-deb -x libpython3.11-testsuite_*.deb root
mkdir -p "$HERE/external"
for f in root/usr/lib/python3.11/test/audiodata/pluck-*; do
    cp "$f" "$HERE/external/cpython-$(basename "$f")"
done
ls "$HERE/external" | grep -vc json | xargs printf 'fetch-external.sh: %s files in external/\n'
