#!/usr/bin/env bash
# Writes two oracles beside every Matroska/WebM fixture in mkv/ (docs/testing.md, "Matroska oracles"):
#   <fixture>.mkvinfo.txt  the element tree as mkvinfo (mkvtoolnix) prints it, with each element's
#                          position and sizes (`-v -v -z`): a second oracle for element structure
#   <fixture>.pts.txt      ffprobe's packets as `pts,size,pos` (pts in the stream's time base, ms),
#                          for the seek tests (the .ffprobe.json oracle has no pts)
# Deterministic; run from any directory:
#
#     Fixtures/make-mkv-oracles.sh [FILE...]
#
# Read by Tests/AudioStreamParsingTests/Formats/MatroskaStructureTests.swift and MatroskaSeekTests.swift.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
export LC_ALL=C TZ=UTC
command -v mkvinfo >/dev/null || { echo "make-mkv-oracles.sh: missing mkvinfo (Debian package mkvtoolnix; scripts/install-fixture-tools.sh)" >&2; exit 1; }
[ "$#" -gt 0 ] || rm -f mkv/*.mkvinfo.txt mkv/*.pts.txt
if [ "$#" -gt 0 ]; then FILES=("$@"); else FILES=(mkv/*.mka mkv/*.mkv mkv/*.webm); fi
for f in "${FILES[@]}"; do
    f="${f#./}"
    mkvinfo --ui-language en_US -v -v -z "$f" > "$f.mkvinfo.txt"
    ffprobe -v error -select_streams a:0 -show_entries packet=pts,size,pos -of csv=p=0 "$f" > "$f.pts.txt"
done
echo "make-mkv-oracles.sh: ${#FILES[@]} files ($(mkvinfo --version))"
