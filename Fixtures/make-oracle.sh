#!/usr/bin/env bash
# Writes <fixture>.ffprobe.json beside every fixture under Fixtures/ (all
# sub-folders except malformed/ and tools/), using ffprobe and
# tools/normalize_ffprobe.py. Deterministic; run from any directory:
#
#     Fixtures/make-oracle.sh [FILE...]
#
# With FILE arguments only those fixtures are processed. Oracles whose fixture
# no longer exists are deleted. See README.md ("Oracle") for the schema.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
export LC_ALL=C TZ=UTC
command -v ffprobe >/dev/null || { echo "make-oracle.sh: missing ffprobe" >&2; exit 1; }

T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT

# Stale oracles (hls/ has its own, written by generate-hls.sh for each playlist).
find . -path ./malformed -prune -o -path ./tools -prune -o -path ./hls -prune -o -type f -name '*.ffprobe.json' -print |
while read -r o; do
    [ -e "${o%.ffprobe.json}" ] || rm -f "$o"
done

if [ "$#" -gt 0 ]; then
    FILES=("$@")
else
    mapfile -t FILES < <(find . \( -path ./malformed -o -path ./tools -o -path ./hls \) -prune -o -type f -path './*/*' \
        ! -name '*.json' ! -name '*.md' ! -name '*.sh' ! -name '*.py' ! -name '*.tsv' ! -name '.*' -print |
        sed 's|^\./||' | sort)
fi

n=0
for f in "${FILES[@]}"; do
    f="${f#./}"
    [ -f "$f" ] || { echo "make-oracle.sh: no such file $f" >&2; exit 1; }
    rc=0
    ffprobe -hide_banner -v error -show_format -show_streams -show_packets -show_error -of json "$f" \
        > "$T/main.json" 2> "$T/log.txt" || rc=$?
    ffprobe -hide_banner -v quiet -show_streams -show_data -of json "$f" > "$T/data.json" 2>/dev/null || true
    python3 tools/normalize_ffprobe.py --file "$f" --rc "$rc" --main "$T/main.json" \
        --data "$T/data.json" --log "$T/log.txt" > "$T/out.json"
    mv "$T/out.json" "$f.ffprobe.json"
    n=$((n + 1))
done
echo "make-oracle.sh: $n oracle files written"
