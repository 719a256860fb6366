#!/usr/bin/env python3
"""Rewrite the provenance table of README.md from generate.sh's records.

Usage: provenance.py RECORDS.tsv README.md [VERSIONS.txt] [--files FILES.txt]
RECORDS.tsv: file, command, signal, exercises, notes (tab separated, in run order).
FILES.txt (one path relative to Fixtures/ a line): the files generate.sh made. Each must have
exactly one row; malformed/ inputs may instead be covered by a pattern row (`malformed/flac-*`,
whose manifest.json lists them one by one). Every row must be unique and name a made file.
The table replaces everything between the lines
<!-- provenance:begin --> and <!-- provenance:end --> in README.md; the tool
versions (VERSIONS.txt, one line each) replace the block between
<!-- versions:begin --> and <!-- versions:end -->.
"""
import fnmatch
import sys

BEGIN, END = "<!-- provenance:begin -->", "<!-- provenance:end -->"
VBEGIN, VEND = "<!-- versions:begin -->", "<!-- versions:end -->"


def replace_block(text, begin, end, lines):
    if begin not in text or end not in text:
        raise SystemExit("README.md lacks the markers " + begin + " / " + end)
    head = text[:text.index(begin)]
    tail = text[text.index(end) + len(end):]
    return head + "\n".join([begin] + lines + [end]) + tail


def cell(text, code=False):
    text = text.replace("|", "\\|").replace("\n", " ").strip()
    if code and text:
        return "`" + text + "`"
    return text


def check(rows, files):
    problems = []
    seen = set()
    for f in (r[0] for r in rows):
        if f in seen:
            problems.append("two rows for " + f)
        seen.add(f)
    patterns = [f for f in seen if "*" in f]
    made = set(files)
    problems += ["row for a file that was not made: " + f for f in sorted(seen - made) if "*" not in f]
    for f in files:
        if f in seen:
            continue
        if not (f.startswith("malformed/") and any(fnmatch.fnmatchcase(f, p) for p in patterns)):
            problems.append("no provenance row: " + f)
    for p in problems:
        print("provenance.py: " + p, file=sys.stderr)
    if problems:
        raise SystemExit(1)


def main():
    args = sys.argv[1:]
    files = None
    if "--files" in args:
        i = args.index("--files")
        with open(args[i + 1], encoding="utf-8") as f:
            files = [l.strip() for l in f if l.strip()]
        del args[i:i + 2]
    tsv, readme = args[0], args[1]
    rows = []
    with open(tsv, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            parts += [""] * (5 - len(parts))
            rows.append(parts[:5])
    if files is not None:
        check(rows, files)
    out = ["| file | tool + exact command | signal | exercises | notes |",
           "| --- | --- | --- | --- | --- |"]
    for f, cmd, sig, what, notes in rows:
        out.append("| %s | %s | %s | %s | %s |" % (cell(f, True), cell(cmd, True), cell(sig), cell(what), cell(notes)))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    text = replace_block(text, BEGIN, END, out)
    if len(args) > 2:
        with open(args[2], encoding="utf-8") as f:
            versions = [l.rstrip() for l in f if l.strip()]
        text = replace_block(text, VBEGIN, VEND, ["```"] + versions + ["```"])
    with open(readme, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
