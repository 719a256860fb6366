#!/usr/bin/env python3
"""Fixtures/malformed/manifest.json: one row per malformed input, written by several generators.

make_malformed.py (chunk formats, MPEG, ADTS, MP4, unknown), make_malformed_flac.py (flac-*) and
ogg_malformed.py (ogg/*) each call merge() with the rows they made: a row replaces the row of the
same file, rows of files that no longer exist are dropped, the rest are kept, and the result is
sorted by file name. The manifest is therefore the union of all generators' rows, byte for byte
the same whatever order the generators run in.

As a script: manifest.py check MALFORMED_DIR -- every file under MALFORMED_DIR (except the JSON
files) has exactly one row, and every row names an existing file.
"""
import json
import os
import sys

NAME = "manifest.json"
NOT_INPUTS = {"manifest.json", "expected.json"}


def load(malformed_dir):
    path = os.path.join(malformed_dir, NAME)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def merge(malformed_dir, rows):
    """Merges rows ({"file": path relative to malformed_dir, ...}) into malformed_dir/manifest.json."""
    new = {}
    for row in rows:
        if row["file"] in new:
            raise SystemExit("manifest.py: two rows for " + row["file"])
        new[row["file"]] = row
    kept = {r["file"]: r for r in load(malformed_dir)
            if r["file"] not in new and os.path.isfile(os.path.join(malformed_dir, r["file"]))}
    kept.update(new)
    with open(os.path.join(malformed_dir, NAME), "w", encoding="utf-8") as f:
        json.dump([kept[k] for k in sorted(kept)], f, indent=1, sort_keys=True)
        f.write("\n")


def inputs(malformed_dir):
    out = []
    for root, dirs, files in os.walk(malformed_dir):
        dirs.sort()
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), malformed_dir).replace(os.sep, "/")
            if rel not in NOT_INPUTS and not name.startswith("."):
                out.append(rel)
    return sorted(out)


def check(malformed_dir):
    rows = [r["file"] for r in load(malformed_dir)]
    problems = []
    if rows != sorted(set(rows)):
        problems.append("rows not sorted or not unique")
    files = set(inputs(malformed_dir))
    problems += ["no manifest row: " + f for f in sorted(files - set(rows))]
    problems += ["row without file: " + f for f in sorted(set(rows) - files)]
    for p in problems:
        print("manifest.py: " + p, file=sys.stderr)
    return not problems


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "check":
        raise SystemExit("usage: manifest.py check MALFORMED_DIR")
    sys.exit(0 if check(sys.argv[2]) else 1)
