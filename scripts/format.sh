#!/usr/bin/env bash
# Formats the package's Swift files in place with the toolchain's swift-format and the root
# .swift-format (CONTRIBUTING.md, "Formatting"). With --lint it changes nothing and fails on any
# finding: what scripts/test.sh (so CI) runs.
#
#   scripts/format.sh                 format every Swift file of the repository
#   scripts/format.sh FILE...         format these files
#   scripts/format.sh --lint [FILE...]   check instead of formatting (exit status 1 on any finding)
#
# The files are the repository's tracked and new (not ignored) *.swift files; .build*/ and other
# ignored folders are never touched. swift-format ships with the Swift toolchain (`swift format`).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=format
if [ "${1:-}" = "--lint" ]; then
    mode=lint
    shift
fi

if ! swift format --version >/dev/null 2>&1; then
    echo "format.sh: 'swift format' is not available (it ships with Swift 6 toolchains)" >&2
    exit 1
fi

files=()
if [ "$#" -gt 0 ]; then
    files=("$@")
else
    # Every Swift file git knows or would add. Outside a git checkout: every *.swift file outside hidden
    # and .build folders.
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        listing=$(git ls-files --cached --others --exclude-standard -- '*.swift')
    else
        listing=$(find . -name '.*' -prune -o -name '*.swift' -print | sed 's|^\./||')
    fi
    while IFS= read -r file; do
        [ -n "$file" ] && [ -f "$file" ] || continue
        files+=("$file")
    done <<<"$listing"
fi
[ "${#files[@]}" -gt 0 ] || { echo "format.sh: no Swift files" >&2; exit 1; }

if [ "$mode" = lint ]; then
    # --strict: every finding is an error, and the exit status is non-zero when there is one.
    if ! swift format lint --strict --parallel --configuration .swift-format -- "${files[@]}"; then
        echo "format.sh: formatting findings above; run scripts/format.sh FILE... to fix them" >&2
        exit 1
    fi
    echo "format.sh: ${#files[@]} files lint clean"
else
    swift format format --in-place --parallel --configuration .swift-format -- "${files[@]}"
fi
