#!/usr/bin/env python3
"""Helpers of scripts/compare-scanners.sh (issue 20).

  compare_scanners.py make-library --fixtures DIR --inputs DIR --library DIR --files N
  compare_scanners.py mutagen LIBRARY          (the timed mutagen scan: one JSON line per file)
  compare_scanners.py report --library DIR --results DIR --audioinspect PATH
"""
import argparse
import json
import os
import shutil
import sys

AUDIO_EXTENSIONS = {
    "mp3", "mp2", "mp1", "m4a", "m4b", "mp4", "3gp", "3g2", "mov", "aac", "flac", "ogg", "oga", "opus", "wav",
    "aif", "aiff", "aifc", "caf", "au", "ac3",
}

ARTISTS = ["Åsa Öberg", "The \"Quoted\" Band", "O'Neil & Sons", "日本の音", "Zoë   Spaces", "Plain Artist"]
WORDS = ["Intro", "Café", "Naïve Song", "It's Late", "Ünïcødé", "Ballad (Live)", "Don't Stop", "Ω Mega", "Río"]


def audio_files(root, skip_dirs=()):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip_dirs)
        for name in sorted(filenames):
            ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
            if ext in AUDIO_EXTENSIONS:
                found.append(os.path.join(dirpath, name))
    return found


def retag(path, title, artist, album, track):
    """Writes title, artist, album, track number with mutagen where the format takes tags; False if not."""
    import mutagen
    try:
        f = mutagen.File(path, easy=True)
        if f is None:
            return False
        if f.tags is None:
            f.add_tags()
        f["title"] = title
        f["artist"] = artist
        f["album"] = album
        f["tracknumber"] = str(track)
        f.save()
        return True
    except Exception:
        return False


def make_library(args):
    sources = audio_files(args.fixtures, skip_dirs=("malformed", "tools"))
    sources += [p for p in audio_files(args.inputs) if ("-15s." in p or "-60s." in p)]
    sources.sort()
    marker = os.path.join(args.library, ".complete")
    if os.path.exists(marker) and open(marker).read() == f"{args.files} {len(sources)}":
        print(f"library ready: {args.library}")
        return
    shutil.rmtree(args.library, ignore_errors=True)
    tagged = 0
    total = 0
    for i in range(args.files):
        src = sources[i % len(sources)]
        artist = ARTISTS[i % len(ARTISTS)]
        album = f"Album {i // 20 % 7} – {WORDS[i // 20 % len(WORDS)]}"
        directory = os.path.join(args.library, f"{artist} {i // 140:02d}", album)
        os.makedirs(directory, exist_ok=True)
        title = f"{WORDS[i % len(WORDS)]} {i}"
        ext = src.rsplit(".", 1)[-1]
        dest = os.path.join(directory, f"{i % 20 + 1:02d} {title}.{ext}")
        shutil.copyfile(src, dest)
        total += os.path.getsize(dest)
        if retag(dest, title, artist, album, i % 20 + 1):
            tagged += 1
    with open(marker, "w") as f:
        f.write(f"{args.files} {len(sources)}")
    print(f"library: {args.files} files from {len(sources)} sources, {total / 1e6:.0f} MB, {tagged} retagged "
          f"by mutagen, in {args.library}")


def mutagen_scan(library):
    """The mutagen scanner: every file of the library read with mutagen.File (easy tags), one JSON line each."""
    import mutagen
    out = sys.stdout
    for dirpath, dirnames, filenames in os.walk(library):
        for name in filenames:
            path = os.path.join(dirpath, name)
            try:
                f = mutagen.File(path, easy=True)
            except Exception as e:
                out.write(json.dumps({"path": path, "error": str(e)}) + "\n")
                continue
            if f is None:
                out.write(json.dumps({"path": path, "type": None}) + "\n")
                continue
            tags = {}
            if f.tags is not None:
                for key in ("title", "artist", "album"):
                    try:
                        value = f.tags.get(key)
                    except Exception:
                        value = None
                    if value:
                        tags[key] = value[0] if isinstance(value, list) else str(value)
            length = getattr(f.info, "length", None)
            out.write(json.dumps({"path": path, "type": type(f).__name__, "length": length, "tags": tags}) + "\n")


# MARK: Report

FAMILIES = [
    # (family, audioinspect fileTypes, substrings of the other tools' format names, lower case)
    ("mpeg", {"MPG3", "MPG2", "MPG1"}, ["mp3", "mpeg audio", "mp2", "mp1"]),
    ("adts", {"adts"}, ["aac", "adts"]),
    ("mp4", {"mp4f", "m4af", "m4bf", "3gpp", "3gp2", "qt  "},
     ["mp4", "mpeg-4", "m4a", "m4b", "3gp", "quicktime", "mov", "easymp4"]),
    ("flac", {"flac"}, ["flac"]),
    ("ogg", {"ogg "}, ["ogg", "opus", "vorbis"]),
    ("wav", {"WAVE", "RF64", "BW64", "W64f"}, ["wav", "wave"]),
    ("aiff", {"AIFF", "AIFC"}, ["aif"]),
    ("caf", {"caff"}, ["caf"]),
    ("au", {"NeXT"}, ["au", "sun"]),
    ("ac3", {"ac-3"}, ["ac3", "ac-3"]),
]


def family_of_filetype(file_type):
    for family, types, _ in FAMILIES:
        if file_type in types:
            return family
    return None


def family_of_name(name):
    if not name:
        return None
    lower = name.lower()
    # Order matters: "ogg flac" is ogg; "adts" before "aac"-containing names only for raw AAC.
    if "ogg" in lower or "opus" in lower or "vorbis" in lower:
        return "ogg"
    for family, _, needles in FAMILIES:
        if any(n in lower for n in needles):
            return family
    return None


def load_jsonl(path):
    docs = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.strip()
            if line:
                d = json.loads(line)
                docs[d.get("source") or d.get("path")] = d
    return docs


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def load_mediainfo(path):
    text = open(path, encoding="utf-8", errors="replace").read().strip()
    if not text:
        return {}
    data = json.loads(text)
    items = data if isinstance(data, list) else [data]
    out = {}
    for item in items:
        media = item.get("media") or {}
        ref = media.get("@ref")
        general = next((t for t in media.get("track", []) if t.get("@type") == "General"), {})
        audio = next((t for t in media.get("track", []) if t.get("@type") == "Audio"), {})
        out[ref] = {
            "format": general.get("Format") or audio.get("Format"),
            "duration": number(general.get("Duration") or audio.get("Duration")),
            "tags": {k: general.get(m) for k, m in (("title", "Title"), ("artist", "Performer"), ("album", "Album"))
                     if general.get(m)},
        }
        if "title" not in out[ref]["tags"] and general.get("Track"):
            out[ref]["tags"]["title"] = general.get("Track")
    return out


def load_exiftool(path):
    text = open(path, encoding="utf-8", errors="replace").read().strip()
    if not text:
        return {}
    out = {}
    for item in json.loads(text):
        out[item.get("SourceFile")] = {
            "format": item.get("FileType"),
            "duration": number(item.get("Duration")),
            "tags": {k: str(item[m]) for k, m in (("title", "Title"), ("artist", "Artist"), ("album", "Album"))
                     if m in item},
        }
    return out


def load_ffprobe(path):
    raw = open(path, "rb").read().split(b"\0")
    out = {}
    for i in range(0, len(raw) - 1, 2):
        name = raw[i].decode("utf-8", "surrogateescape")
        try:
            d = json.loads(raw[i + 1] or b"{}")
        except json.JSONDecodeError:
            d = {}
        fmt = d.get("format", {})
        tags = {k.lower(): v for k, v in (fmt.get("tags") or {}).items()}
        for s in d.get("streams", []):
            for k, v in (s.get("tags") or {}).items():
                tags.setdefault(k.lower(), v)
        out[name] = {
            "format": fmt.get("format_name"),
            "duration": number(fmt.get("duration")),
            "tags": {k: tags[k] for k in ("title", "artist", "album") if k in tags},
        }
    return out


def load_mutagen(path):
    out = {}
    for p, d in load_jsonl(path).items():
        out[p] = {"format": d.get("type"), "duration": d.get("length"), "tags": d.get("tags") or {}}
    return out


def ours(doc):
    d = doc.get("duration") or {}
    meta = doc.get("metadata") or {}
    return {
        "family": family_of_filetype(doc.get("fileType")),
        "fileType": doc.get("fileType"),
        "duration": d.get("seconds"),
        "estimated": d.get("estimated"),
        "tags": {k: meta[k] for k in ("title", "artist", "album") if k in meta},
        "error": (doc.get("error") or {}).get("code"),
    }


def compare(mine, theirs, name):
    """Disagreements between our documents and one tool's results, as (kind, path, ours, theirs)."""
    rows = []
    compared = 0
    for path, t in theirs.items():
        if path not in mine:
            continue
        compared += 1
        o = ours(mine[path])
        fam = family_of_name(t["format"])
        if t["format"] and fam != o["family"]:
            rows.append(("format", path, o["fileType"], t["format"]))
        if o["duration"] is not None and t["duration"] is not None:
            if abs(o["duration"] - t["duration"]) > max(0.05, 0.01 * t["duration"]):
                kind = "duration (ours estimated)" if o["estimated"] else "duration"
                rows.append((kind, path, round(o["duration"], 3), round(t["duration"], 3)))
        elif t["duration"] is not None and o["duration"] is None:
            rows.append(("duration missing in ours", path, None, t["duration"]))
        for key in ("title", "artist", "album"):
            a = o["tags"].get(key)
            b = t["tags"].get(key)
            if a is not None and b is not None and a.strip() != str(b).strip():
                rows.append((f"tag {key}", path, a, b))
            elif b is not None and a is None:
                rows.append((f"tag {key} missing in ours", path, None, b))
    return compared, rows


def report(args):
    results = args.results
    seconds = {}
    cpu = {}
    for name in ("audioinspect", "audioinspect-quick", "mediainfo", "exiftool", "mutagen", "ffprobe"):
        p = os.path.join(results, f"{name}.seconds")
        if os.path.exists(p):
            seconds[name] = float(open(p).read())
            cpu[name] = float(open(os.path.join(results, f"{name}.cpu")).read())
    total_files = sum(len(f) for _, _, f in os.walk(args.library)) - 1  # without .complete
    library_bytes = sum(os.path.getsize(os.path.join(d, n)) for d, _, fs in os.walk(args.library) for n in fs)
    sample = sum(1 for _ in open(os.path.join(results, "ffprobe.files"), encoding="utf-8", errors="replace"))

    def files_of(name):
        return sample if name == "ffprobe" else total_files
    per_file = {n: s / files_of(n) * 1000 for n, s in seconds.items()}
    cpu_per_file = {n: s / files_of(n) * 1000 for n, s in cpu.items()}
    goals = {"ffprobe": 50, "mediainfo": 10, "exiftool": 10, "mutagen": 5}
    mine = load_jsonl(os.path.join(results, "audioinspect.out"))
    quick = load_jsonl(os.path.join(results, "audioinspect-quick.out"))
    errors = sum(1 for d in mine.values() if d.get("error"))
    print(f"\nLibrary: {total_files} files, {library_bytes / 1e6:.0f} MB ({args.library}); "
          f"audioinspect documents: {len(mine)} ({errors} with an error); ffprobe sample: {sample} files.\n")
    print("| tool | files | wall s | CPU s | wall ms per file | CPU ms per file | speed-up, wall (exact / --quick) "
          "| speed-up, CPU (exact / --quick) | goal |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name in ("audioinspect", "audioinspect-quick", "ffprobe", "mediainfo", "exiftool", "mutagen"):
        if name not in seconds:
            continue
        row = (f"| {name} | {files_of(name)} | {seconds[name]:.2f} | {cpu[name]:.2f} | {per_file[name]:.3f} "
               f"| {cpu_per_file[name]:.3f} |")
        if name in goals:
            g = goals[name]
            a = per_file[name] / per_file["audioinspect"]
            q = per_file[name] / per_file["audioinspect-quick"]
            ca = cpu_per_file[name] / cpu_per_file["audioinspect"]
            cq = cpu_per_file[name] / cpu_per_file["audioinspect-quick"]
            met = lambda x: "met" if x >= g else "missed"
            row += (f" {a:.1f}x / {q:.1f}x | {ca:.1f}x / {cq:.1f}x | ≥ {g}x: wall {met(a)}/{met(q)}, "
                    f"CPU {met(ca)}/{met(cq)} |")
        else:
            row += " | | |"
        print(row)
    print("\nAgreement with audioinspect (exact mode): files both report; disagreements by kind.\n")
    tools = {
        "ffprobe": load_ffprobe(os.path.join(results, "ffprobe.out")),
        "mediainfo": load_mediainfo(os.path.join(results, "mediainfo.out")),
        "exiftool": load_exiftool(os.path.join(results, "exiftool.out")),
        "mutagen": load_mutagen(os.path.join(results, "mutagen.out")),
    }
    print("| tool | files compared | kind | count | example (ours → theirs) |")
    print("| --- | ---: | --- | ---: | --- |")
    for name, theirs in tools.items():
        compared, rows = compare(mine, theirs, name)
        kinds = {}
        for row in rows:
            kinds.setdefault(row[0], []).append(row)
        if not kinds:
            print(f"| {name} | {compared} | (none) | 0 | |")
        for kind, items in sorted(kinds.items()):
            k, path, a, b = items[0]
            short = os.path.relpath(path, args.library)
            print(f"| {name} | {compared} | {kind} | {len(items)} | `{short}`: {a!r} → {b!r} |")

    # --quick against exact.
    differ = {"format": 0, "tags": 0, "duration > 1 %": 0, "exact but flagged estimated": 0}
    example = {}
    for path, d in mine.items():
        q = quick.get(path)
        if q is None:
            continue
        o, p = ours(d), ours(q)
        if o["fileType"] != p["fileType"]:
            differ["format"] += 1
            example.setdefault("format", path)
        if o["tags"] != p["tags"]:
            differ["tags"] += 1
            example.setdefault("tags", path)
        if o["duration"] and p["duration"] and abs(o["duration"] - p["duration"]) > 0.01 * o["duration"]:
            differ["duration > 1 %"] += 1
            example.setdefault("duration > 1 %", f"{path}: {o['duration']} → {p['duration']}")
        if p["estimated"] and not o["estimated"]:
            differ["exact but flagged estimated"] += 1
    print("\n--quick against the exact scan (same files):\n")
    print("| difference | files | example |")
    print("| --- | ---: | --- |")
    for k, v in differ.items():
        ex = example.get(k, "")
        print(f"| {k} | {v} | {os.path.relpath(ex, args.library) if ex and k != 'duration > 1 %' else ex} |")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make-library")
    m.add_argument("--fixtures", required=True)
    m.add_argument("--inputs", required=True)
    m.add_argument("--library", required=True)
    m.add_argument("--files", type=int, default=3000)
    g = sub.add_parser("mutagen")
    g.add_argument("library")
    r = sub.add_parser("report")
    r.add_argument("--library", required=True)
    r.add_argument("--results", required=True)
    r.add_argument("--audioinspect", required=True)
    args = parser.parse_args()
    if args.command == "make-library":
        make_library(args)
    elif args.command == "mutagen":
        mutagen_scan(args.library)
    else:
        report(args)


if __name__ == "__main__":
    main()
