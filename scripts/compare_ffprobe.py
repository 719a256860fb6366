#!/usr/bin/env python3
"""Times audioinspect against ffprobe -count_packets and ffmpeg -c copy -f null, interleaved.

Driven by scripts/compare-ffprobe.sh (which builds audioinspect and makes the inputs); run that.

For every input: one warm-up run of each command, then RUNS rounds of A B C (audioinspect, ffprobe,
ffmpeg) in that order, each a whole process started by scripts/spawn_measure.c (fork, exec, wait4), so
the wall time is the process's life and ru_maxrss its peak resident memory. Then audioinspect reading the file
through standard input (`audioinspect - < F`) RUNS times, for its peak memory in that mode.

audioinspect's packet count (its "Parsed N packets, B bytes" line) is checked against ffprobe's
nb_read_packets. They count the same units for MP3, ADTS, M4A, FLAC and Ogg; for PCM containers
audioinspect's packets are sample frames (Apple's convention) while ffprobe groups PCM into
floor(4096 / block_align) * block_align-byte packets, so there the check compares ffprobe's count with
ceil(parsed bytes / that group size). A mismatch is flagged in the table and makes the exit status 1.
"""

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

# name, file suffix, kind ("pcm" → ffprobe groups packets of 4096 bytes)
FORMATS = [
    ("mp3cbr", "mp3", None),
    ("mp3vbr", "mp3", None),
    ("adts", "aac", None),
    ("m4a", "m4a", None),
    ("wav", "wav", "pcm"),
    ("caf", "caf", "pcm"),
    ("aiff", "aiff", "pcm"),
    ("flac", "flac", None),
    ("vorbis", "ogg", None),
    ("opus", "opus", None),
    ("webm", "webm", None),
    ("mka", "mka", None),
]


SPAWN = None  # path of the compiled spawn_measure helper (set in main)


def run(argv, stdin_path=None):
    """Runs argv through spawn_measure; returns (seconds, maxrss_kib, exit_status, stdout_text).

    The wall time and ru_maxrss come from the small C launcher (fork, exec, wait4), not from Python:
    Linux keeps ru_maxrss across exec, so a child forked from Python would inherit Python's RSS as floor.
    """
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as result:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            proc = subprocess.run([SPAWN, result.name] + argv, stdin=stdin, stdout=out, stderr=subprocess.PIPE)
        finally:
            if stdin_path:
                stdin.close()
        if proc.returncode != 0:
            raise SystemExit(f"spawn_measure failed: {proc.stderr.decode(errors='replace')}")
        elapsed, maxrss, status = result.read().split()
        out.seek(0)
        text = out.read().decode(errors="replace")
    if int(status) != 0:
        text += "\n[stderr] " + proc.stderr.decode(errors="replace")
    return float(elapsed), int(maxrss), int(status), text


def settle_page_cache(path):
    """Drops `path` from the page cache and reads it through once: the cache then holds it as a file read
    from disk does. How a file came into the cache changes how costly mapping it is (Linux 6.18 here):
    read-ahead fills it in large folios, which a mapping of 2 MiB or more maps a folio per page fault,
    while the pages an encoder's writes just made may be 4 KiB each, one page table entry apiece
    (docs/performance.md, "Session 14")."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        while os.read(fd, 1 << 20):
            pass
    finally:
        os.close(fd)


def parsed_counts(text):
    m = re.search(r"Parsed\s*:?\s+(\d+) packets, (\d+) bytes", text)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def ffprobe_count(text):
    m = re.search(r"nb_read_packets=(\d+)", text)
    return int(m.group(1)) if m else None


def pcm_block_align(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
         "stream=channels,bits_per_sample", "-of", "default=nw=1", path],
        capture_output=True, text=True, check=True).stdout
    fields = dict(line.split("=", 1) for line in out.split())
    return int(fields["channels"]) * int(fields["bits_per_sample"]) // 8


def fmt_s(x):
    return f"{x:.3f}"


def fmt_mb(kib):
    return f"{kib / 1024:.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--audioinspect", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--length", default="60m")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--formats", default=",".join(f[0] for f in FORMATS))
    ap.add_argument("--markdown", help="also write the tables to this file")
    ap.add_argument("--spawn", required=True, help="the compiled scripts/spawn_measure.c")
    ap.add_argument("--page-cache", choices=["read", "as-is"], default="read",
                    help="read (default): before its runs, drop each input from the page cache and read it "
                         "through once, the state of a file read from disk; as-is: leave the cache as it is "
                         "(a file an encoder just wrote sits in the pages its writes made)")
    args = ap.parse_args()
    global SPAWN
    SPAWN = args.spawn
    floor = [run(["/bin/true"])[1] for _ in range(3)]
    # Start-up floors: the processes doing no parsing at all.
    startup = {"audioinspect --help": [args.audioinspect, "--help"], "ffprobe -version": ["ffprobe", "-version"]}
    startup_runs = {k: [run(argv)[:2] for _ in range(max(5, args.runs))] for k, argv in startup.items()}

    wanted = args.formats.split(",")
    rows = []
    failures = 0
    for name, suffix, kind in FORMATS:
        if name not in wanted:
            continue
        path = os.path.join(args.inputs, f"{name}-{args.length}.{suffix}")
        if not os.path.exists(path):
            print(f"missing {path}", file=sys.stderr)
            failures += 1
            continue
        cmds = {
            "audioinspect": [args.audioinspect, "--no-progress", path],
            "ffprobe": ["ffprobe", "-v", "error", "-count_packets", "-select_streams", "a:0",
                        "-show_entries", "stream=nb_read_packets", "-of", "default=nw=1", path],
            "ffmpeg": ["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-c", "copy", "-f", "null", "-"],
        }
        if args.page_cache == "read":
            settle_page_cache(path)
        times = {k: [] for k in cmds}
        rss = {k: [] for k in cmds}
        outputs = {}
        for k, argv in cmds.items():  # warm-up (page cache, dynamic loader)
            _, _, status, text = run(argv)
            outputs[k] = text
            if status != 0:
                print(f"{name}: {k} failed (exit {status}):\n{text}", file=sys.stderr)
                failures += 1
        for _ in range(args.runs):
            for k, argv in cmds.items():
                t, r, status, text = run(argv)
                if status != 0:
                    print(f"{name}: {k} failed (exit {status})", file=sys.stderr)
                    failures += 1
                times[k].append(t)
                rss[k].append(r)
                outputs[k] = text
        stdin_rss = []
        stdin_times = []
        stdin_counts = None
        for _ in range(max(3, args.runs // 2)):
            t, r, status, text = run([args.audioinspect, "--no-progress", "-"], stdin_path=path)
            if status != 0:
                print(f"{name}: audioinspect - < file failed (exit {status})", file=sys.stderr)
                failures += 1
            stdin_rss.append(r)
            stdin_times.append(t)
            stdin_counts = parsed_counts(text)

        packets, parsed_bytes = parsed_counts(outputs["audioinspect"])
        probe = ffprobe_count(outputs["ffprobe"])
        if kind == "pcm" and parsed_bytes is not None:
            ba = pcm_block_align(path)
            group = (4096 // ba) * ba
            comparable = math.ceil(parsed_bytes / group)
            note = f"ceil({parsed_bytes} B / {group})"
        else:
            comparable = packets
            note = ""
        ok = comparable is not None and probe is not None and comparable == probe
        ok = ok and stdin_counts == (packets, parsed_bytes)
        if not ok:
            failures += 1
        med = {k: statistics.median(v) for k, v in times.items()}
        mins = {k: min(v) for k, v in times.items()}
        rows.append(dict(
            name=name, size=os.path.getsize(path), packets=packets, probe=probe, comparable=comparable,
            note=note, ok=ok, med=med, min=mins, rss={k: max(v) for k, v in rss.items()},
            stdin_rss=max(stdin_rss), stdin_med=statistics.median(stdin_times)))
        r = rows[-1]
        print(f"{name}: audioinspect {fmt_s(med['audioinspect'])} s, ffprobe {fmt_s(med['ffprobe'])} s, "
              f"ffmpeg {fmt_s(med['ffmpeg'])} s; packets {packets} vs ffprobe {probe}"
              f"{'' if ok else '  MISMATCH'}", file=sys.stderr, flush=True)

    lines = []
    lines.append("Start-up floor (no parsing), median wall time / peak RSS: " + "; ".join(
        f"`{k}` {statistics.median(t for t, _ in v) * 1000:.0f} ms / {fmt_mb(max(r for _, r in v))} MB"
        for k, v in startup_runs.items()) + ".")
    lines.append("")
    lines.append(f"Page cache: {'each input dropped and read through once before its runs' if args.page_cache == 'read' else 'as found'} (--page-cache {args.page_cache}).")
    lines.append("")
    lines.append(f"Wall time per whole process, median (min) of {args.runs} interleaved runs after a warm-up; "
                 "ratio = other / audioinspect (medians; min-based in brackets).")
    lines.append("")
    lines.append("| input | MB | audioinspect s | ffprobe s | ffmpeg s | ffprobe / ai | ffmpeg / ai |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        m, n = r["med"], r["min"]
        lines.append(
            f"| {r['name']} | {r['size'] / 1e6:.0f} "
            f"| {fmt_s(m['audioinspect'])} ({fmt_s(n['audioinspect'])}) "
            f"| {fmt_s(m['ffprobe'])} ({fmt_s(n['ffprobe'])}) "
            f"| {fmt_s(m['ffmpeg'])} ({fmt_s(n['ffmpeg'])}) "
            f"| {m['ffprobe'] / m['audioinspect']:.1f}x ({n['ffprobe'] / n['audioinspect']:.1f}x) "
            f"| {m['ffmpeg'] / m['audioinspect']:.1f}x ({n['ffmpeg'] / n['audioinspect']:.1f}x) |")
    lines.append("")
    lines.append("Peak resident memory (ru_maxrss, MB = MiB, max over runs; `/bin/true` measured the same way: "
                 f"{fmt_mb(max(floor))}) and packet counts.")
    lines.append("")
    lines.append("| input | audioinspect FILE | audioinspect - < FILE | ffprobe | ffmpeg "
                 "| audioinspect packets | ffprobe nb_read_packets | check |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        check = "equal" if r["ok"] else "**MISMATCH**"
        if r["note"] and r["ok"]:
            check = f"equal as {r['note']} = {r['comparable']}"
        elif r["note"]:
            check = f"**MISMATCH** ({r['note']} = {r['comparable']})"
        lines.append(
            f"| {r['name']} | {fmt_mb(r['rss']['audioinspect'])} | {fmt_mb(r['stdin_rss'])} "
            f"| {fmt_mb(r['rss']['ffprobe'])} | {fmt_mb(r['rss']['ffmpeg'])} "
            f"| {r['packets']} | {r['probe']} | {check} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
