#!/usr/bin/env python3
"""Rewrite the provenance table of README.md from generate.sh's records.

Usage: provenance.py RECORDS.tsv README.md [VERSIONS.txt]
RECORDS.tsv: file, command, signal, exercises, notes (tab separated, in run order).
The table replaces everything between the lines
<!-- provenance:begin --> and <!-- provenance:end --> in README.md; the tool
versions (VERSIONS.txt, one line each) replace the block between
<!-- versions:begin --> and <!-- versions:end -->.
"""
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


def main():
    tsv, readme = sys.argv[1], sys.argv[2]
    rows = []
    with open(tsv, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            parts += [""] * (5 - len(parts))
            rows.append(parts[:5])
    out = ["| file | tool + exact command | signal | exercises | notes |",
           "| --- | --- | --- | --- | --- |"]
    for f, cmd, sig, what, notes in rows:
        out.append("| %s | %s | %s | %s | %s |" % (cell(f, True), cell(cmd, True), cell(sig), cell(what), cell(notes)))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    text = replace_block(text, BEGIN, END, out)
    if len(sys.argv) > 3:
        with open(sys.argv[3], encoding="utf-8") as f:
            versions = [l.rstrip() for l in f if l.strip()]
        text = replace_block(text, VBEGIN, VEND, ["```"] + versions + ["```"])
    with open(readme, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
