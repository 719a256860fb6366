#!/usr/bin/env bash
# Loopback HLS tests (docs/hls.md): nginx on 127.0.0.1 serves the ffmpeg-made VOD playlists of
# Fixtures/hls/ (fMP4, fMP4 in one file with byte ranges, packed ADTS, AES-128 packed ADTS, a master
# playlist with two audio-only variants and an audio rendition; MPEG-TS once the library detects it) and
# a live playlist that ffmpeg writes while this runs (-re, -hls_list_size 4 rolling window, fMP4).
# Every VOD URL is checked against ffprobe on the same URL (sample rate, channels, packet count) and
# against the local parse of the same playlist and of its segments concatenated (packets: offset-free
# sizes and frames). The live stream is followed with `audioinspect --follow --json --packets`: its
# packets must be a contiguous run of the local parse of every segment ffmpeg wrote; its time to first
# packet is printed.
#
# Usage: scripts/test-streaming-hls.sh [path/to/audioinspect]   (run by scripts/test-streaming.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
for tool in nginx ffmpeg ffprobe curl python3; do
    command -v "$tool" >/dev/null || [ -x /usr/sbin/nginx ] || {
        echo "test-streaming-hls.sh: SKIPPED: $tool missing (scripts/install-streaming-tools.sh)"
        exit 0
    }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
inspect=$(scripts/debug-audioinspect.sh "${1:-}")

script_name=test-streaming-hls.sh
# shellcheck source=scripts/loopback-lib.sh
source scripts/loopback-lib.sh

port=$(free_port) || fail "no free port"
mkdir -p "$work/gen/live"
# The access log names each request's connection and its number on it ($connection_requests): the
# keep-alive check below counts audioinspect's connections.
start_nginx "application/vnd.apple.mpegurl m3u8;" "    server {
        listen 127.0.0.1:$port;
        access_log $work/access.log requests;
        root $root/Fixtures;
        location /gen/ { alias $work/gen/; expires -1; }
    }" "    log_format requests '\$connection \$connection_requests \$http_user_agent \$uri';"
wait_http "http://127.0.0.1:$port/hls/fmp4/index.m3u8" 10 || fail "nginx did not start"
base="http://127.0.0.1:$port"

# The live stream starts now (ffmpeg in real time, 14 s, 1 s segments, a window of 4), so that it runs
# while the VOD checks do.
ffmpeg -hide_banner -loglevel error -nostdin -re -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=14" \
    -c:a aac -b:a 48k -f hls -hls_time 1 -hls_list_size 4 -hls_segment_type fmp4 \
    -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$work/gen/live/seg%d.m4s" \
    "$work/gen/live/index.m3u8" >"$work/ffmpeg-live.log" 2>&1 &
live_ffmpeg=$!
pids+=($live_ffmpeg)

echo "== HLS keep-alive: the requests of one playlist share connections"
: >"$work/access.log"
"$inspect" --json "$base/hls/fmp4/index.m3u8" >/dev/null || fail "audioinspect on the fMP4 playlist"
read -r requests connections < <(awk '$3 == "audioinspect" { n++; c[$1] = 1 } END { print n, length(c) }' \
    "$work/access.log")
echo "  fMP4 playlist: $requests requests (playlist, init section, segments) over $connections connections"
[ "${requests:-0}" -ge 3 ] && [ "${connections:-0}" -ge 1 ] && [ "$connections" -lt "$requests" ] ||
    fail "keep-alive: $requests requests over $connections connections"

echo "== HLS VOD over nginx: ffprobe on the same URL, local playlist, concatenated segments"
python3 - "$inspect" "$base" "$root/Fixtures/hls" <<'PY' || fail "VOD checks"
import json, os, subprocess, sys
inspect, base, hls = sys.argv[1:]

def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=120)

def document(source):
    r = run([inspect, "--json", "--packets", source])
    if r.returncode != 0:
        raise SystemExit(f"audioinspect {source}: {r.returncode} {r.stderr.strip()}")
    return json.loads(r.stdout)

def packets(doc):
    return [(p["size"], p["frames"]) for p in doc["packets"]]

def ffprobe(url):
    r = run(["ffprobe", "-v", "error", "-show_entries", "stream=sample_rate,channels,nb_read_packets",
             "-count_packets", "-of", "json", url])
    return json.loads(r.stdout)["streams"][0]

def concatenated(folder):
    lines = [l.strip() for l in open(os.path.join(hls, folder, "index.m3u8"))]
    out = b""
    for l in lines:
        if l.startswith("#EXT-X-MAP:"):
            out += open(os.path.join(hls, folder, l.split('URI="')[1].split('"')[0]), "rb").read()
        elif l and not l.startswith("#"):
            out += open(os.path.join(hls, folder, l), "rb").read()
    return out

failures = []
cases = [("fmp4", "fmp4", True), ("single (byte ranges)", "single", False), ("packed ADTS + PRIV", "packed", True),
         ("AES-128 packed", "aes", False)]
for label, folder, concat in cases:
    url = f"{base}/hls/{folder}/index.m3u8"
    remote = document(url)
    local = document(os.path.join(hls, folder, "index.m3u8"))
    probe = ffprobe(url)
    n = len(remote["packets"])
    fmt = remote["dataFormat"]
    ok = (n == int(probe["nb_read_packets"]) and fmt["sampleRate"] == float(probe["sample_rate"])
          and fmt["channelsPerFrame"] == probe["channels"])
    same_local = packets(remote) == packets(local)
    same_concat = True
    if concat:
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"hls-concat-{os.getpid()}-{folder}")
        open(path, "wb").write(concatenated(folder))
        same_concat = packets(document(path)) == packets(remote)
        os.remove(path)
    print(f"  {label:22} {n:4} packets {fmt['sampleRate']:.0f} Hz {fmt['channelsPerFrame']} ch; ffprobe "
          f"{probe['nb_read_packets']} packets {probe['sample_rate']} Hz {probe['channels']} ch; local playlist "
          f"{'same' if same_local else 'DIFFERENT'}; concatenated {'same' if same_concat else 'DIFFERENT'}")
    if not (ok and same_local and same_concat):
        failures.append(label)
# The master playlist: the automatic choice is the audio-only variant with the highest bandwidth (fMP4).
master = document(f"{base}/hls/mixed/master.m3u8")
fmp4 = document(f"{base}/hls/fmp4/index.m3u8")
print(f"  master playlist        {len(master['packets'])} packets {master['dataFormat']['sampleRate']:.0f} Hz "
      f"(the 48000 b/s fMP4 variant: {'yes' if packets(master) == packets(fmp4) else 'NO'})")
if packets(master) != packets(fmp4):
    failures.append("master")
# Errors: a 404 playlist, a segment that 404s after retries.
r = run([inspect, f"{base}/hls/nothing.m3u8"])
print(f"  404 playlist           exit {r.returncode}: {r.stderr.strip()[:100]}")
if r.returncode == 0:
    failures.append("404 playlist")
if failures:
    print("failed: " + ", ".join(failures), file=sys.stderr)
    sys.exit(1)
PY
echo "hls vod: OK"

# MPEG-TS segments: only once the library detects MPEG-TS.
# (ADTS resynchronisation finds frames inside TS packets, so "some packets" is not enough: the file type
# must be the transport stream's.)
ts_type=$("$inspect" --json "$root/Fixtures/hls/ts/seg0.ts" 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin).get("fileType") or "")' || true)
if [ -n "$ts_type" ] && [ "$ts_type" != adts ]; then
    echo "== HLS MPEG-TS segments"
    n=$("$inspect" --json "$base/hls/ts/index.m3u8" | python3 -c 'import json,sys; print(json.load(sys.stdin)["parsed"]["packets"])')
    want=$(ffprobe -v error -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$base/hls/ts/index.m3u8" | sed -n 1p)
    [ "$n" = "$want" ] || fail "ts: $n packets, ffprobe $want"
    echo "hls ts: OK ($n packets)"
else
    echo "hls ts: not checked (the library does not detect MPEG-TS on this branch)"
fi

echo "== HLS live: ffmpeg -re writing a rolling 4-segment window, audioinspect --follow"
for _ in $(seq 1 100); do [ -s "$work/gen/live/index.m3u8" ] && break; sleep 0.1; done
[ -s "$work/gen/live/index.m3u8" ] || fail "ffmpeg wrote no live playlist"
"$inspect" --follow --json --packets --max-seconds 9 "$base/gen/live/index.m3u8" >"$work/follow.jsonl" \
    2>"$work/follow.log" || fail "audioinspect --follow on the live playlist"
wait "$live_ffmpeg" || true
python3 - "$inspect" "$work" <<'PY' || fail "live checks"
import json, os, re, subprocess, sys
inspect, work = sys.argv[1:]
events = [json.loads(l) for l in open(os.path.join(work, "follow.jsonl")) if l.strip()]
got = [(e["size"], e["frames"]) for e in events if e.get("event") == "packet"]
end = [e for e in events if e.get("event") == "end"][-1]
fmt = [e for e in events if e.get("event") == "format"]
# Every segment ffmpeg wrote (they are not deleted), concatenated after the init section.
live = os.path.join(work, "gen", "live")
segs = sorted((f for f in os.listdir(live) if f.endswith(".m4s")), key=lambda f: int(re.findall(r"\d+", f)[0]))
path = os.path.join(work, "live-all.mp4")
with open(path, "wb") as out:
    out.write(open(os.path.join(live, "init.mp4"), "rb").read())
    for s in segs:
        out.write(open(os.path.join(live, s), "rb").read())
doc = json.loads(subprocess.run([inspect, "--json", "--packets", path], capture_output=True, text=True).stdout)
whole = [(p["size"], p["frames"]) for p in doc["packets"]]
start = next((i for i in range(len(whole)) if whole[i:i + len(got)] == got), None)
print(f"  followed {len(got)} packets ({fmt[0]['sampleRate'] if fmt else '?'} Hz), a contiguous run of the "
      f"{len(whole)} packets of the {len(segs)} segments from packet {start}; time to first packet "
      f"{end.get('firstPacketSeconds')} s")
if not got or start is None or not fmt or fmt[0]["sampleRate"] != 48000:
    sys.exit(1)
PY
echo "hls live: OK"
echo "test-streaming-hls.sh: all passed"
