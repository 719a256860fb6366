#!/usr/bin/env bash
# Loopback streaming tests against real servers (issue 8): Icecast 2 with ffmpeg as the source client,
# and nginx serving the fixtures. Everything listens on 127.0.0.1 only, on free ports chosen here;
# every wait is bounded; the servers are stopped on exit (trap), also on failure.
#
#   1. Icecast: ffmpeg streams a generated 20 s VBR MP3 in real time (-re, -c copy, no Xing/ID3 so the
#      stream is the file's frames) to /live.mp3; titles are changed with Icecast's admin
#      metadata URL at known times; `audioinspect URL --follow --json --packets --max-seconds N` must
#      (a) see the changed titles in order, each before the packet where it takes effect, and
#      (b) give packets whose sizes are a contiguous run of the local parse of the same file
#      (the connection starts mid-stream: Icecast's burst starts at an arbitrary byte, so the first
#      two packets after the resync are ignored).
#   2. Icecast, four Ogg mounts at once: ffmpeg streams generated 20 s Ogg Vorbis and Ogg Opus files
#      (-re -c copy); a small paced HTTP PUT source client (python3) streams a chained Ogg Vorbis and a
#      chained Ogg Opus file (3 links of 2 s, each with its own TITLE comment / OpusTags) in real time.
#      Listeners that connect mid-stream get packets whose sizes are a contiguous run of the local
#      parse; on the chains, the current link's title at their first packet and every later link's
#      title in order, announced right before the link's first packet.
#   2b. Icecast, WebM: ffmpeg remuxes the live Ogg Opus file into WebM in real time (-f webm -content_type
#      audio/webm) to /live.webm; a listener 2.5 s in gets the Opus track and a contiguous run of its
#      packets, not from the first.
#   3. nginx: every fixture with an oracle fetched over HTTP (TCP reads of random sizes, seeded through
#      audioinspect's AUDIOINSPECT_TEST_RECV_SEED test hook) gives the same audioinspect/1 JSON as the
#      local file (except "source"); a Range request answers 206 with the requested bytes; the chained
#      files over HTTP announce every link's title at the link's first packet; the first fixture of every
#      folder also over https:// (nginx with a certificate from a test CA made here with openssl, trusted
#      through audioinspect's AUDIOINSPECT_TEST_CA_FILE hook), and a 404 there.
#   4. nginx + Examples/RangePlayer (built here, debug): for one input of every format (MP3 CBR without
#      a TOC, MP3 with Info/Xing TOC, ADTS, WAV, AIFF, CAF ALAC (pakt before and after the data) and PCM,
#      AU, FLAC with and without
#      SEEKTABLE, Ogg Vorbis and Opus, MP4 faststart, moov-at-end, fragmented, Matroska/WebM with Cues
#      before and after the Clusters and without Cues), playing the whole file
#      through 4 KiB Range windows gives the local parse's packets; seeks to the middle, last and first
#      packet (sync API, and --async through AudioStreamEventSequence) give packets equal to the local
#      parse's from the landed index, which must be the requested one for formats with tables and
#      within the bound measured and documented in docs/streaming.md for estimated ones; moov-at-end
#      and pakt-after-data files fetch fewer bytes than the file before their first packet.
#   5. HLS: scripts/test-streaming-hls.sh (nginx serving the ffmpeg-made HLS fixtures, checked against
#      ffprobe on the same URLs and the local parse; a live playlist written by ffmpeg while it runs).
#
# Tools: icecast2, nginx, ffmpeg, curl, python3, flac, openssl (scripts/install-streaming-tools.sh installs
# them with apt). Takes 1-1.5 min once built (8 s MP3 + 7 s Ogg of live streaming, ~210 fixtures over HTTP, the
# seek checks) plus the RangePlayer package's debug build (about 1-2 min from a clean clone).
# When they cannot be installed the test is skipped with a message (exit 0) unless
# STREAMING_TESTS_REQUIRED=1. Usage: scripts/test-streaming.sh [path/to/audioinspect]
# (a debug build: the test hooks of part 3 are compiled only into debug builds, docs/cli.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if ! scripts/install-streaming-tools.sh; then
    if [ "${STREAMING_TESTS_REQUIRED:-0}" = 1 ]; then
        echo "test-streaming.sh: icecast2/nginx/ffmpeg/curl/python3/flac/openssl missing and cannot be installed" >&2
        exit 1
    fi
    echo "test-streaming.sh: SKIPPED: icecast2/nginx/ffmpeg/curl/python3/flac/openssl missing and cannot be installed"
    exit 0
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# Part 3 drives the test hooks of audioinspect (AUDIOINSPECT_TEST_RECV_SEED) and of its HTTP stack,
# audioinspect-http (AUDIOINSPECT_TEST_CA_FILE), which only debug builds have.
inspect=$(scripts/debug-audioinspect.sh "${1:-}")

script_name=test-streaming.sh
# shellcheck source=scripts/loopback-lib.sh
source scripts/loopback-lib.sh

# ---------------------------------------------------------------------------------------------------
echo "== Icecast: live MP3 with title changes"
ice_port=$(free_port) || fail "no free port"
mkdir -p "$work/icecast-log" "$work/gen"
chmod 777 "$work" "$work/icecast-log"
owner=""
if [ "$(id -u)" = 0 ]; then
    # Icecast refuses to run as root unless it changes owner after binding.
    owner="<changeowner><user>nobody</user><group>nogroup</group></changeowner>"
fi
cat >"$work/icecast.xml" <<XML
<icecast>
  <location>loopback</location><admin>test@localhost</admin>
  <limits><clients>10</clients><sources>6</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
    <burst-on-connect>1</burst-on-connect><burst-size>16384</burst-size></limits>
  <authentication><source-password>sourcepw</source-password><relay-password>relaypw</relay-password>
    <admin-user>admin</admin-user><admin-password>adminpw</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$ice_port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>1</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>$work/icecast-log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><errorlog>error.log</errorlog><accesslog>access.log</accesslog><loglevel>3</loglevel></logging>
  <security><chroot>0</chroot>$owner</security>
  <mount><mount-name>/live.ogg</mount-name><burst-size>2048</burst-size></mount>
  <mount><mount-name>/live.opus</mount-name><burst-size>2048</burst-size></mount>
  <mount><mount-name>/chain.ogg</mount-name><burst-size>2048</burst-size></mount>
  <mount><mount-name>/chain.opus</mount-name><burst-size>2048</burst-size></mount>
  <mount><mount-name>/live.webm</mount-name><burst-size>2048</burst-size></mount>
</icecast>
XML
icecast2 -c "$work/icecast.xml" >"$work/icecast.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$ice_port/status-json.xsl" 15 || fail "icecast did not start"

# A 20 s VBR MP3 (distinct frame sizes make the packet comparison meaningful).
ffmpeg -nostdin -loglevel error -f lavfi -i "sine=frequency=440:duration=20:sample_rate=44100" \
    -f lavfi -i "anoisesrc=d=20:c=pink:r=44100:a=0.05:seed=7" -filter_complex amix=inputs=2 \
    -ac 2 -c:a libmp3lame -q:a 4 -fflags +bitexact "$work/live.mp3" || fail "ffmpeg could not encode"

ffmpeg -nostdin -loglevel error -re -i "$work/live.mp3" -c copy -write_xing 0 -id3v2_version 0 \
    -content_type audio/mpeg -f mp3 "icecast://source:sourcepw@127.0.0.1:$ice_port/live.mp3" \
    >"$work/ffmpeg.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do
    curl -s --max-time 2 -u admin:adminpw "http://127.0.0.1:$ice_port/admin/listmounts" | grep -q "/live.mp3" && break
    sleep 0.2
done
curl -s --max-time 2 -u admin:adminpw "http://127.0.0.1:$ice_port/admin/listmounts" | grep -q "/live.mp3" \
    || fail "the source did not connect"

set_title() {
    curl -s -o /dev/null -f --max-time 3 -u admin:adminpw -G \
        --data-urlencode "mount=/live.mp3" --data-urlencode "mode=updinfo" --data-urlencode "song=$1" \
        "http://127.0.0.1:$ice_port/admin/metadata" || fail "admin metadata update failed ($1)"
}
set_title "Loopback - Title One"
"$inspect" --follow --json --packets --max-seconds 8 "http://127.0.0.1:$ice_port/live.mp3" \
    >"$work/follow.jsonl" 2>"$work/follow.log" &
inspect_pid=$!
pids+=($inspect_pid)
sleep 2.5
set_title "Loopback - Title Two; it's"
sleep 2.5
set_title "Loopback - Title Three"
wait "$inspect_pid" || fail "audioinspect --follow failed"
"$inspect" --json --packets "$work/live.mp3" >"$work/local.json" || fail "local parse failed"

python3 - "$work/follow.jsonl" "$work/local.json" <<'PY' || fail "Icecast stream check"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
local = json.load(open(sys.argv[2]))
sizes = [p["size"] for p in local["packets"]]
got = [e for e in events if e["event"] == "packet"]
titles = [(e["title"], e["packet"]) for e in events if e["event"] == "title"]
end = events[-1]
assert end["event"] == "end" and end["reason"] in ("max-seconds", "end"), end
assert len(got) > 100, f"only {len(got)} packets in 8 s"
# Titles: ours, in order (Icecast may also send the initial one again); each before its packet.
wanted = ["Loopback - Title One", "Loopback - Title Two; it's", "Loopback - Title Three"]
ours = [t for t, _ in titles if t in wanted]
dedup = [t for i, t in enumerate(ours) if i == 0 or ours[i - 1] != t]
assert dedup == wanted, f"titles {titles}"
count = 0
for e in events:
    if e["event"] == "packet": count += 1
    if e["event"] == "title": assert e["packet"] == count, (e, count)
# Packets: after the first two (the burst starts at an arbitrary byte), a contiguous run of the file.
run = [p["size"] for p in got[2:]]
starts = [i for i in range(len(sizes) - len(run) + 1) if sizes[i:i + len(run)] == run]
assert starts, "received packet sizes are not a contiguous run of the local parse"
print(f"icecast: {len(got)} packets, titles {[t for t, _ in titles]}, run starts at local packet "
      f"{starts[0] - 2}, time to first packet {end['firstPacketSeconds'] * 1000:.1f} ms")
PY
# For comparison with audioinspect's time to first packet: curl's time to the first body byte.
ttfb=$(curl -s -o /dev/null --max-time 2 -w '%{time_starttransfer}' "http://127.0.0.1:$ice_port/live.mp3" || true)
echo "icecast: OK (curl time to first byte ${ttfb:-?} s, for comparison)"

# ---------------------------------------------------------------------------------------------------
echo "== Icecast: live Ogg Vorbis and Opus (ffmpeg), chained Ogg Vorbis and Opus with title changes"
# Four mounts at once (about 7 s in all):
#   /live.ogg, /live.opus: ffmpeg streams a generated 20 s Vorbis / Opus file in real time (-re -c copy);
#     a listener that connects 2.5 s in (the Ogg mounts have a 2 KiB burst) gets the header pages Icecast
#     keeps, then whole pages from a recent one: its packets must be a contiguous run of the local parse
#     of the same file, not starting at its first packet.
#   /chain.ogg, /chain.opus: a chained Ogg stream (3 links of 2 s, each its own encode with its own
#     TITLE comment / OpusTags, concatenated), sent in real time by a small HTTP PUT source client
#     (ffmpeg cannot stream a chain: it merges the links into one stream and drops the new headers;
#     curl -T does not pace the upload). Icecast's admin metadata does not apply to Ogg: titles
#     travel as each link's comments. The listener joins in the first (or second) link; it must get a contiguous
#     run of the local parse, the current link's title at its first packet, then every later link's
#     title in order, each announced right before the link's first packet.
ogg_mix() {  # ogg_mix SECONDS RATE SEED FREQ → the lavfi inputs of a sine + pink noise mix
    echo "-f lavfi -i sine=frequency=$4:duration=$1:sample_rate=$2" \
        "-f lavfi -i anoisesrc=d=$1:c=pink:r=$2:a=0.05:seed=$3"
}
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 20 44100 9 330) -filter_complex amix=inputs=2 \
    -ac 2 -c:a libvorbis -q:a 3 -fflags +bitexact -flags +bitexact "$work/live.ogg" \
    || fail "ffmpeg could not encode Vorbis"
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 20 48000 11 370) -filter_complex amix=inputs=2 \
    -ac 2 -c:a libopus -b:a 48k -fflags +bitexact -flags +bitexact "$work/live.opus" \
    || fail "ffmpeg could not encode Opus"
for codec in vorbis opus; do
    for i in 1 2 3; do
        if [ $codec = vorbis ]; then
            ext=ogg rate=44100 enc="-c:a libvorbis -q:a 2" title="Chain Vorbis $i"
        else
            ext=opus rate=48000 enc="-c:a libopus -b:a 48k" title="Chain Opus $i; it's"
        fi
        # shellcheck disable=SC2046,SC2086
        ffmpeg -nostdin -loglevel error $(ogg_mix 2 $rate $((20 + i)) $((200 * i))) \
            -filter_complex amix=inputs=2 -ac 2 $enc -metadata title="$title" -serial_offset $((100 * i)) \
            -fflags +bitexact -flags +bitexact "$work/gen/$codec-link$i.$ext" || fail "ffmpeg: chain link $i"
    done
    cat "$work/gen/$codec-link1.$ext" "$work/gen/$codec-link2.$ext" "$work/gen/$codec-link3.$ext" \
        >"$work/gen/chain-$codec.$ext"
done

cat >"$work/ogg_source.py" <<'PY'
# A minimal Icecast source client: HTTP PUT of an Ogg file, paced page by page so that the bytes go
# out at the file's average rate (real time). Usage: ogg_source.py FILE SECONDS PORT MOUNT PASSWORD
import base64, socket, sys, time
path, seconds, port, mount, password = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
data = open(path, "rb").read()
pages, i = [], 0
while i + 27 <= len(data):
    assert data[i:i + 4] == b"OggS", f"no Ogg page at {i}"
    n = data[i + 26]
    size = 27 + n + sum(data[i + 27:i + 27 + n])
    pages.append(data[i:i + size])
    i += size
rate = len(data) / seconds
s = socket.create_connection(("127.0.0.1", port), timeout=10)
auth = base64.b64encode(f"source:{password}".encode()).decode()
s.sendall((f"PUT {mount} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Basic {auth}\r\n"
           "Content-Type: application/ogg\r\nIce-Public: 0\r\nUser-Agent: test-streaming\r\n\r\n").encode())
head = b""
while b"\r\n\r\n" not in head:
    chunk = s.recv(1024)
    if not chunk: sys.exit("icecast closed the source connection")
    head += chunk
if b" 200" not in head.split(b"\r\n")[0]: sys.exit(f"icecast refused the source: {head[:80]!r}")
start, sent = time.monotonic(), 0
for page in pages:
    delay = start + sent / rate - time.monotonic()
    if delay > 0: time.sleep(min(delay, 2))
    s.sendall(page)
    sent += len(page)
time.sleep(0.3)
s.close()
PY

ffmpeg -nostdin -loglevel error -re -i "$work/live.ogg" -c copy -content_type application/ogg -f ogg \
    "icecast://source:sourcepw@127.0.0.1:$ice_port/live.ogg" >"$work/ffmpeg-ogg.log" 2>&1 &
pids+=($!)
ffmpeg -nostdin -loglevel error -re -i "$work/live.opus" -c copy -content_type audio/ogg -f ogg \
    "icecast://source:sourcepw@127.0.0.1:$ice_port/live.opus" >"$work/ffmpeg-opus.log" 2>&1 &
pids+=($!)
python3 "$work/ogg_source.py" "$work/gen/chain-vorbis.ogg" 6 "$ice_port" /chain.ogg sourcepw \
    >"$work/source-chain-ogg.log" 2>&1 &
pids+=($!)
python3 "$work/ogg_source.py" "$work/gen/chain-opus.opus" 6 "$ice_port" /chain.opus sourcepw \
    >"$work/source-chain-opus.log" 2>&1 &
pids+=($!)
for mount in /live.ogg /live.opus /chain.ogg /chain.opus; do
    for _ in $(seq 1 50); do
        curl -s --max-time 2 -u admin:adminpw "http://127.0.0.1:$ice_port/admin/listmounts" | grep -q "\"$mount\"" \
            && break
        sleep 0.1
    done
done
# Listeners connect mid-stream: 1 s in on the chains (inside the first link, usually), 2.5 s in on
# the live mounts (past ffmpeg's first pages of up to 1 s each).
follower_pids=()
for mount in chain.ogg chain.opus "" live.ogg live.opus; do
    if [ -z "$mount" ]; then sleep 1.5; continue; fi
    [ "$mount" = chain.ogg ] && sleep 1
    # The live mounts: 4 s; the chains end when their source does (about 6 s), bounded by 12 s.
    seconds=4
    case $mount in chain.*) seconds=12 ;; esac
    "$inspect" --follow --json --packets --max-seconds $seconds "http://127.0.0.1:$ice_port/$mount" \
        >"$work/follow-$mount.jsonl" 2>"$work/follow-$mount.log" &
    follower_pids+=($!)
    pids+=($!)
done
for pid in "${follower_pids[@]}"; do wait "$pid" || fail "audioinspect --follow (Ogg) failed"; done
"$inspect" --json --packets "$work/live.ogg" >"$work/local-live.ogg.json" || fail "local Ogg parse failed"
"$inspect" --json --packets "$work/live.opus" >"$work/local-live.opus.json" || fail "local Opus parse failed"
"$inspect" --json --packets "$work/gen/chain-vorbis.ogg" >"$work/local-chain.ogg.json" || fail "local chain parse"
"$inspect" --json --packets "$work/gen/chain-opus.opus" >"$work/local-chain.opus.json" || fail "local chain parse"
for codec in vorbis opus; do
    ext=ogg
    [ $codec = opus ] && ext=opus
    for i in 1 2 3; do
        "$inspect" --json --packets "$work/gen/$codec-link$i.$ext" >"$work/local-$codec-link$i.json" \
            || fail "local link parse"
    done
done

python3 - "$work" <<'PY' || fail "Icecast Ogg stream check"
import json, sys
work = sys.argv[1]
def events(name): return [json.loads(l) for l in open(f"{work}/follow-{name}.jsonl") if l.strip()]
def local(name): return json.load(open(f"{work}/{name}"))
def run_start(got, sizes, what):
    starts = [i for i in range(len(sizes) - len(got) + 1) if sizes[i:i + len(got)] == got]
    assert starts, f"{what}: received packet sizes are not a contiguous run of the local parse"
    return starts[0]
for mount, codec in (("live.ogg", "vorb"), ("live.opus", "opus")):
    ev = events(mount)
    loc = local(f"local-{mount}.json")
    got = [e["size"] for e in ev if e["event"] == "packet"]
    fmt = next(e for e in ev if e["event"] == "format")
    assert fmt["fileType"] == loc["fileType"] and fmt["formatID"] == codec, (fmt, loc["fileType"])
    assert len(got) > 50, f"{mount}: only {len(got)} packets"
    start = run_start(got, [p["size"] for p in loc["packets"]], mount)
    assert start > 0, f"{mount}: the listener got the stream from its first packet, not mid-stream"
    print(f"icecast {mount}: {len(got)} packets from local packet {start}, "
          f"time to first packet {ev[-1]['firstPacketSeconds'] * 1000:.1f} ms")
for mount, codec, title in (("chain.ogg", "vorbis", "Chain Vorbis {}"), ("chain.opus", "opus", "Chain Opus {}; it's")):
    ev = events(mount)
    loc = local(f"local-{mount}.json")
    counts = [len(local(f"local-{codec}-link{i}.json")["packets"]) for i in (1, 2, 3)]
    firsts = [0, counts[0], counts[0] + counts[1]]           # each link's first packet in the chain
    sizes = [p["size"] for p in loc["packets"]]
    assert len(sizes) == sum(counts), (mount, len(sizes), counts)
    got = [e["size"] for e in ev if e["event"] == "packet"]
    assert ev[-1]["event"] == "end" and ev[-1]["reason"] == "end", ev[-1]
    start = run_start(got, sizes, mount)
    # Joined in the first link (usually) or the second: at least one title change comes mid-stream.
    assert start < firsts[2], f"{mount}: joined at local packet {start}, in the last link"
    # Every metadata event right before the packet it names (no packet between), in order.
    count, meta = 0, []
    for e in ev:
        if e["event"] == "packet": count += 1
        if e["event"] == "metadata":
            assert e["packet"] == count, (e, count)
            meta.append((e["title"], start + e["packet"]))
    current = max(i for i in range(3) if firsts[i] <= start)
    want = [(title.format(current + 1), start)] + \
        [(title.format(i + 1), firsts[i]) for i in range(current + 1, 3) if firsts[i] < start + len(got)]
    assert meta == want, f"{mount}: metadata {meta}, expected {want}"
    assert len(want) == 3 - current and start + len(got) == len(sizes), (mount, want, start, len(got))
    print(f"icecast {mount}: {len(got)} packets from local packet {start} to the end, titles at local "
          f"packets {[p for _, p in meta]} (links start at {firsts})")
PY
echo "icecast ogg: OK"
# ---------------------------------------------------------------------------------------------------
echo "== Icecast: live WebM/Opus (ffmpeg -f webm)"
# ffmpeg remuxes the 20 s Ogg Opus file above into WebM in real time (-re -c copy -f webm, a Segment of
# unknown size, Clusters of 1 s as it goes) to /live.webm; Icecast keeps the WebM header (EBML, Segment, Info,
# Tracks) for new listeners and starts them at a Cluster within the mount's burst (2 KiB, as the Ogg mounts:
# with the default 16 KiB the burst reaches back to the first Cluster). A listener 2.5 s in must get the
# Opus track (fileType webm, formatID opus) and packets whose sizes are a contiguous run of the local parse of the
# same Opus packets (the Ogg file), not starting at its first packet.
ffmpeg -nostdin -loglevel error -re -i "$work/live.opus" -c copy -cluster_time_limit 1000 \
    -content_type audio/webm -f webm "icecast://source:sourcepw@127.0.0.1:$ice_port/live.webm" \
    >"$work/ffmpeg-webm.log" 2>&1 &
webm_source=$!
pids+=($webm_source)
for _ in $(seq 1 50); do
    curl -s --max-time 2 -u admin:adminpw "http://127.0.0.1:$ice_port/admin/listmounts" | grep -q '"/live.webm"' \
        && break
    sleep 0.1
done
sleep 2.5
"$inspect" --follow --json --packets --max-seconds 4 "http://127.0.0.1:$ice_port/live.webm" \
    >"$work/follow-live.webm.jsonl" 2>"$work/follow-live.webm.log" || fail "audioinspect --follow (WebM) failed"
kill "$webm_source" 2>/dev/null || true
python3 - "$work" <<'PY' || fail "Icecast WebM stream check"
import json, sys
work = sys.argv[1]
ev = [json.loads(l) for l in open(f"{work}/follow-live.webm.jsonl") if l.strip()]
loc = json.load(open(f"{work}/local-live.opus.json"))
sizes = [p["size"] for p in loc["packets"]]
got = [e["size"] for e in ev if e["event"] == "packet"]
fmt = next(e for e in ev if e["event"] == "format")
assert fmt["fileType"] == "webm" and fmt["formatID"] == "opus", fmt
assert len(got) > 50, f"live.webm: only {len(got)} packets"
starts = [i for i in range(len(sizes) - len(got) + 1) if sizes[i:i + len(got)] == got]
assert starts, "live.webm: received packet sizes are not a contiguous run of the local parse"
assert starts[0] > 0, "live.webm: the listener got the stream from its first packet, not mid-stream"
print(f"icecast live.webm: {len(got)} packets from local packet {starts[0]}, "
      f"time to first packet {ev[-1]['firstPacketSeconds'] * 1000:.1f} ms")
PY
echo "icecast webm: OK"
# ---------------------------------------------------------------------------------------------------
echo "== nginx: every fixture over HTTP equals the local parse"
ngx_port=$(free_port) || fail "no free port"
ngxs_port=$(free_port) || fail "no free port"
mkdir -p "$work/tls"
# A test CA and a certificate for 127.0.0.1 signed by it (audioinspect trusts the CA through its
# AUDIOINSPECT_TEST_CA_FILE hook; the system's trust store is not touched).
(
    cd "$work/tls"
    ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 30 -subj "/CN=audioinspect streaming test CA" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
    openssl req "${ec[@]}" -keyout leaf.key -out leaf.csr -subj "/CN=127.0.0.1"
    printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >leaf.ext
    openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem -days 30 -extfile leaf.ext
) >"$work/openssl.log" 2>&1 || fail "openssl could not make the test certificates"
start_nginx "application/octet-stream bin;" "    server {
        listen 127.0.0.1:$ngx_port;
        root $root/Fixtures;
        location /gen/ { alias $work/gen/; }
    }
    server {
        listen 127.0.0.1:$ngxs_port ssl;
        ssl_certificate $work/tls/leaf.pem;
        ssl_certificate_key $work/tls/leaf.key;
        root $root/Fixtures;
    }"
wait_http "http://127.0.0.1:$ngx_port/README.md" 10 || fail "nginx did not start"

range=$(curl -s -f --max-time 5 -r 100-199 -w '%{http_code}' -o "$work/range.bin" \
    "http://127.0.0.1:$ngx_port/mpeg/mp3-44100-2ch-concat.mp3")
[ "$range" = 206 ] || fail "Range request answered $range"
cmp -s "$work/range.bin" <(tail -c +101 Fixtures/mpeg/mp3-44100-2ch-concat.mp3 | head -c 100) \
    || fail "Range bytes differ"

# same_json FILE WHAT [VAR=value …]: the audioinspect/1 JSON (with packets, "source" left out) of the
# fixture over nginx ($base, http by default), with the given environment, equals the local file's; else
# fail "FILE differs WHAT".
base="http://127.0.0.1:$ngx_port"
same_json() {
    local file=$1 what=$2
    shift 2
    local rel=${file#Fixtures/}
    "$inspect" --json --packets "$file" 2>/dev/null | grep -v '^  "source"' >"$work/a.json" || true
    env "$@" "$inspect" --json --packets "$base/$rel" 2>/dev/null \
        | grep -v '^  "source"' >"$work/b.json" || true
    if ! cmp -s "$work/a.json" "$work/b.json"; then
        diff "$work/a.json" "$work/b.json" | head -5 || true
        fail "$rel differs $what"
    fi
}

count=0
for oracle in Fixtures/*/*.ffprobe.json; do
    # TCP reads of random sizes (1…8192 bytes, a different seed per file): the same JSON as the local parse.
    same_json "${oracle%.ffprobe.json}" "over HTTP" AUDIOINSPECT_TEST_RECV_SEED=$((count + 1))
    count=$((count + 1))
done
[ "$count" -gt 0 ] || fail "no fixtures found"
echo "nginx: OK ($count fixtures, Range 206)"
# https:// (the same HTTP stack as http://, with TLS): the first fixture of every folder from nginx's TLS
# server gives the same JSON as the local parse; then a 404 over https.
base="https://127.0.0.1:$ngxs_port"
tls_count=0
for dir in Fixtures/*/; do
    oracle=$(ls "$dir"*.ffprobe.json 2>/dev/null | head -1 || true)
    [ -n "$oracle" ] || continue
    same_json "${oracle%.ffprobe.json}" "over https" AUDIOINSPECT_TEST_CA_FILE="$work/tls/ca.pem"
    tls_count=$((tls_count + 1))
done
base="http://127.0.0.1:$ngx_port"
if AUDIOINSPECT_TEST_CA_FILE="$work/tls/ca.pem" "$inspect" "https://127.0.0.1:$ngxs_port/no-such-file.mp3" \
    >/dev/null 2>"$work/https-404.log"; then
    fail "a 404 over https exited 0"
fi
grep -q "HTTP status 404" "$work/https-404.log" || fail "404 over https: $(cat "$work/https-404.log")"
echo "https: OK ($tls_count fixtures over TLS, 404 reported)"
# A chained Ogg file over plain HTTP: every link's title, in order, right before the link's first packet.
for chain in chain-vorbis.ogg chain-opus.opus; do
    "$inspect" --follow --json --packets --max-seconds 20 "http://127.0.0.1:$ngx_port/gen/$chain" \
        >"$work/follow-http-$chain.jsonl" 2>"$work/follow-http-$chain.log" || fail "audioinspect --follow $chain"
done
python3 - "$work" <<'PY' || fail "chained Ogg titles over HTTP"
import json, sys
work = sys.argv[1]
for chain, codec, title in (("chain-vorbis.ogg", "vorbis", "Chain Vorbis {}"),
                            ("chain-opus.opus", "opus", "Chain Opus {}; it's")):
    counts = [len(json.load(open(f"{work}/local-{codec}-link{i}.json"))["packets"]) for i in (1, 2, 3)]
    ev = [json.loads(l) for l in open(f"{work}/follow-http-{chain}.jsonl") if l.strip()]
    count, meta = 0, []
    for e in ev:
        if e["event"] == "packet": count += 1
        if e["event"] == "metadata":
            assert e["packet"] == count, (e, count)
            meta.append((e["title"], e["packet"]))
    want = [(title.format(1), 0), (title.format(2), counts[0]), (title.format(3), counts[0] + counts[1])]
    assert meta == want and count == sum(counts), (chain, meta, want, count)
print("nginx chained Ogg: every link's title at its first packet")
PY

# ---------------------------------------------------------------------------------------------------
echo "== RangePlayer (Examples/RangePlayer): Range seeking and moov-at-end over nginx"
# The example client is its own package; built here once (debug: quicker than release overall).
player_pkg="$root/Examples/RangePlayer"
swift build --package-path "$player_pkg" --product range-player >"$work/range-player-build.log" 2>&1 \
    || fail "Examples/RangePlayer does not build"
player="$(swift build --package-path "$player_pkg" --show-bin-path)/range-player"
# Longer inputs than the fixtures, so that seek estimates have room to miss: CBR MP3 without a Xing/Info
# frame (bit-rate arithmetic), VBR MP3 with a Xing TOC, ADTS, FLAC with and without a SEEKTABLE, and a
# 20 s MP4 with the moov at the end, and a 20 s ALAC CAF with its pakt after the data (ffmpeg's layout).
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 10 44100 31 440) -filter_complex amix=inputs=2 -ac 2 \
    -c:a libmp3lame -b:a 128k -write_xing 0 -id3v2_version 0 -fflags +bitexact "$work/gen/cbr.mp3" \
    || fail "ffmpeg: cbr.mp3"
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 10 44100 32 440) -filter_complex amix=inputs=2 -ac 2 \
    -c:a libmp3lame -q:a 4 -fflags +bitexact "$work/gen/vbr-xing.mp3" || fail "ffmpeg: vbr-xing.mp3"
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 10 44100 33 440) -filter_complex amix=inputs=2 -ac 2 \
    -c:a aac -b:a 128k -fflags +bitexact -flags +bitexact -f adts "$work/gen/long.aac" || fail "ffmpeg: long.aac"
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 20 44100 34 440) -filter_complex amix=inputs=2 -ac 2 \
    -c:a aac -b:a 128k -fflags +bitexact -flags +bitexact "$work/gen/moov-end.m4a" || fail "ffmpeg: moov-end.m4a"
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 20 44100 36 440) -filter_complex amix=inputs=2 -ac 2 \
    -c:a alac -fflags +bitexact -flags +bitexact "$work/gen/pakt-end.caf" || fail "ffmpeg: pakt-end.caf"
# shellcheck disable=SC2046
ffmpeg -nostdin -loglevel error $(ogg_mix 10 44100 35 440) -filter_complex amix=inputs=2 -ac 2 \
    -c:a pcm_s16le -fflags +bitexact -flags +bitexact "$work/gen/src.wav" || fail "ffmpeg: src.wav"
# FLAC with a SEEKTABLE point every second (flac's own encoder), and without one (ffmpeg writes none).
flac -s -f --no-padding -S 1s -o "$work/gen/seektable.flac" "$work/gen/src.wav" || fail "flac: seektable.flac"
ffmpeg -nostdin -loglevel error -i "$work/gen/src.wav" -c:a flac -fflags +bitexact -flags +bitexact \
    "$work/gen/noseektable.flac" || fail "ffmpeg: noseektable.flac"
ffmpeg -nostdin -loglevel error -i "$work/live.opus" -c copy -cluster_time_limit 1000 -fflags +bitexact \
    -flags +bitexact "$work/gen/live-cues.webm" || fail "ffmpeg: live-cues.webm"
cp "$work/live.ogg" "$work/gen/live.ogg"
cp "$work/live.opus" "$work/gen/live.opus"

python3 - "$work" "$root" "$inspect" "$player" "$ngx_port" <<'PY' || fail "RangePlayer checks"
import json, subprocess, sys
work, root, inspect, player, port = sys.argv[1:6]
# (label, path under the server root, bound, options). bound None: the format has tables, every seek must
# land exactly on the requested packet, labelled with it, not estimated. Otherwise the seek offset may be
# estimated and bound(n) is the largest |landed - requested| accepted for a stream of n packets: measured
# on these inputs (worst seen, rounded up; see docs/streaming.md), except CBR MP3 without a TOC, where
# docs/formats/mpeg-audio.md promises that the resync finds exactly the requested frame.
toc = lambda n: max(2, n // 100 + 1)           # Xing/Info TOC: 1 % entries
linear = lambda n: max(2, -(-6 * n // 100))    # Ogg: average page bytes per packet of what was parsed: 6 %
adts = lambda n: max(2, -(-16 * n // 100))     # ADTS: average distance between the frames parsed: 16 %
mkv_nocues = lambda n: max(2, -(-16 * n // 100))  # Matroska without Cues: estimate, then the next block
# Matroska Cues with estimated labels (Opus): a packet seek lands on the Cluster of the last cue point at or
# before its label and delivers that Cluster's first packet labelled with the target (docs/formats/matroska.md):
# at most one Cluster's packets before it (these inputs: Clusters of 500 ms and 1 s, 25 and 50 packets of
# 20 ms; the seeks here, to multiples of 25, landed within 1 on 2026-11-26).
mkv_cluster = lambda n: 50
cases = [
    ("MP3 CBR, no Xing (bit-rate arithmetic)", "gen/cbr.mp3", lambda n: 0, {}),
    ("MP3 CBR, Info TOC", "mpeg/mp3-44100-2ch-lame-cbr128.mp3", toc, {}),
    ("MP3 VBR, Xing TOC", "gen/vbr-xing.mp3", toc, {}),
    ("MP3 VBR, Xing TOC (fixture)", "mpeg/mp3-44100-2ch-lame-v0.mp3", toc, {}),
    ("ADTS", "gen/long.aac", adts, {}),
    ("ADTS (fixture)", "adts/aac-44100-2ch.aac", adts, {}),
    ("WAV", "wav/pcm_s16le-44100-2ch.wav", None, {}),
    ("AIFF", "aiff/pcm_s16be-44100-2ch.aiff", None, {}),
    ("CAF (ALAC, pakt)", "caf/alac-44100-2ch-sndfile.caf", None, {}),
    ("CAF (PCM)", "caf/pcm_s16le-44100-2ch.caf", None, {}),
    # ffmpeg writes the pakt after the data: the player follows the parser's two byte requests.
    ("CAF (ALAC, pakt after data)", "caf/alac-44100-2ch.caf", None, {}),
    ("CAF (ALAC, pakt after data, 20 s)", "gen/pakt-end.caf", None, {"tableAtEnd": True}),
    ("AU", "au/pcm_s16be-22050-1ch.au", None, {}),
    # Packets that start at a SEEKTABLE point are placed exactly (docs/formats/flac.md): seeks to two
    # of them must land exactly, too.
    ("FLAC with SEEKTABLE", "gen/seektable.flac", lambda n: 1, {"seekpoints": True}),
    ("FLAC with SEEKTABLE (fixture)", "flac/flac-44100-2ch-s16.flac", lambda n: 1, {}),
    ("FLAC without SEEKTABLE", "gen/noseektable.flac", lambda n: 1, {}),
    ("FLAC without SEEKTABLE (fixture)", "flac/flac-48000-2ch-s16-ffmpeg.flac", lambda n: 1, {}),
    ("Ogg Vorbis", "gen/live.ogg", linear, {}),
    ("Ogg Vorbis (fixture)", "ogg/vorbis-44100-2ch-oggenc.ogg", linear, {}),
    ("Ogg Opus", "gen/live.opus", linear, {}),
    ("Ogg Opus (fixture)", "ogg/opus-48000-2ch-64k-opusenc.opus", linear, {}),
    ("MP4 faststart", "mp4/aac-44100-2ch-faststart.m4a", None, {}),
    ("MP4 moov at end", "mp4/aac-44100-2ch-moov-end.m4a", None, {"tableAtEnd": True}),
    ("MP4 moov at end, 20 s", "gen/moov-end.m4a", None, {"tableAtEnd": True}),
    # Only fragments already seen can be seeked into: play it through first, then seek.
    ("fragmented MP4", "mp4/aac-44100-2ch-frag.mp4", None, {"initial": None}),
    # Matroska: Cues before the Clusters, after them (fetched through the SeekHead: two byte requests), a
    # 20 s WebM made here with its Cues at the end, and no Cues (Duration and bit rate estimate, resync on
    # the next Cluster). FLAC's constant frames per packet makes Cue seeks exact; Opus packets past what was
    # parsed are labelled from the average frames per packet (docs/formats/matroska.md).
    ("WebM Opus, Cues first", "mkv/opus-48000-2ch-cues-front.webm", mkv_cluster, {}),
    ("WebM Opus, Cues at end", "mkv/opus-48000-2ch-cues-end.webm", mkv_cluster, {}),
    ("WebM Opus, Cues at end, 20 s", "gen/live-cues.webm", mkv_cluster, {}),
    ("MKA FLAC, Cues at end", "mkv/flac-22050-1ch-cues-end.mka", None, {}),
    ("MKA Opus, no Cues", "mkv/opus-48000-2ch-no-cues.mka", mkv_nocues, {}),
]
AFTER = 8
def local_path(rel): return f"{work}/{rel}" if rel.startswith("gen/") else f"{root}/Fixtures/{rel}"
def seekpoint_packets(path):
    """Packet indices of a fixed-block-size FLAC file's SEEKTABLE points (RFC 9639 §8.5)."""
    b = open(path, "rb").read()
    p, block, points = b.index(b"fLaC") + 4, 0, []
    while True:
        kind, size = b[p] & 0x7F, int.from_bytes(b[p + 1:p + 4], "big")
        if kind == 0: block = int.from_bytes(b[p + 4:p + 6], "big")
        if kind == 3:
            points += [int.from_bytes(b[q:q + 8], "big") for q in range(p + 4, p + 4 + size, 18)]
        if b[p] & 0x80: break
        p += 4 + size
    return [x // block for x in points if 0 < x < 2**63 and x % block == 0]
def play(rel, *args):
    out = subprocess.run([player, f"http://127.0.0.1:{port}/{rel}", "--json", "--list-packets", *args],
                         capture_output=True, text=True, timeout=60)
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["error"] is None and not doc["problems"], \
        (rel, args, out.stderr, doc["error"], doc["problems"])
    return doc
rows, failures = [], []
for label, rel, bound, opts in cases:
    exact = bound is None
    loc = json.loads(subprocess.run([inspect, "--json", "--packets", local_path(rel)], capture_output=True,
                                    text=True, timeout=60, check=True).stdout)
    ref = [(p["offset"], p["size"]) for p in loc["packets"]]
    n = len(ref)
    # 1. The whole resource in 4 KiB Range windows: every packet, as the local parse.
    whole = play(rel, "--window", "4096")
    got = [(o, s) for _, o, s in whole["initialPackets"]]
    if got != ref or [i for i, _, _ in whole["initialPackets"]] != list(range(n)):
        failures.append(f"{label}: whole-file packets differ from the local parse ({len(got)} vs {n})")
        continue
    length = whole["resourceLength"]
    # 2. Seeks (middle, last, first) after one packet, 1 KiB reads in 2 KiB windows (so that later
    #    packets were not parsed yet and their offsets are estimated where the format has no table).
    #    The same with --async (the AudioStreamEventSequence adapter, which follows moov-at-end (and CAF
    #    pakt-after-data) byte
    #    requests with Iterator.followByteRequest).
    seeks = [n // 2, n - 1, 0]
    exact_at = seekpoint_packets(local_path(rel))[1:3] if "seekpoints" in opts else []
    seeks += exact_at
    args = ["--window", "2048", "--read-size", "1024", "--packets-after-seek", str(AFTER)]
    if "initial" in opts: args += ["--initial-packets", "1000000"]
    else: args += ["--initial-packets", "1"]
    for s in seeks: args += ["--seek-packet", str(s)]
    docs = [play(rel, *args), play(rel, *args, "--async")]
    results = []
    for seek in [seek for doc in docs for seek in doc["seeks"]]:
        want = seek["packet"]
        if seek["error"] is not None:
            failures.append(f"{label}: seek to {want} refused ({seek['error']})"); continue
        pk = [(o, s) for _, o, s in seek["packets"]]
        if not pk:
            # An estimated offset past the last packet's start: the stream ends, no packet (landed "at n").
            if exact or seek["targetOffset"] <= ref[-1][0]:
                failures.append(f"{label}: seek to {want} (offset {seek['targetOffset']}) gave no packet"); continue
            results.append((want, n, None, seek["estimated"], None)); continue
        starts = [i for i in range(n - len(pk) + 1) if ref[i:i + len(pk)] == pk]
        if not starts:
            failures.append(f"{label}: packets after the seek to {want} are not a run of the local parse"); continue
        landed = min(starts, key=lambda i: abs(i - want))
        if len(pk) < min(AFTER, n - landed):
            failures.append(f"{label}: only {len(pk)} packets after the seek to {want}")
        label_index = seek["packets"][0][0]
        if want in exact_at and landed != want:
            failures.append(f"{label}: seek to {want} (a SEEKTABLE point) landed on {landed}")
        if exact and (landed != want or label_index != want or seek["estimated"]):
            failures.append(f"{label}: seek to {want} landed on {landed} (labelled {label_index}, "
                            f"estimated {seek['estimated']}), expected exactly {want}")
        results.append((want, landed, label_index, seek["estimated"], seek["firstPacketSeconds"]))
    rows.append((label, rel, n, length, whole, results, bound))
for label, rel, n, length, whole, results, bound in rows:
    k = len(results) // 2   # sync results, then async
    worst = max((abs(l - w) for w, l, _, _, _ in results), default=0)
    if bound is not None and worst > bound(n):
        failures.append(f"{label}: a seek landed {worst} packets from the requested one (bound {bound(n)})")
    seeks = ", ".join(f"{w}→{l}" + ("" if li == l else " (end, no packet)" if li is None else f" (labelled {li})")
                      + (" est" if e else "") for w, l, li, e, _ in results[:k])
    if len(results) > k:
        same = [r[:3] for r in results[k:]] == [r[:3] for r in results[:k]]
        seeks += " (sync; async " + ("same" if same else ", ".join(f"{w}→{l}" for w, l, *_ in results[k:])) + ")"
    seeks += f"; bound {bound(n)}" if bound is not None else "; exact"
    print(f"  {label:40} {n:4} packets  first packet {whole['firstPacketSeconds'] * 1000:6.2f} ms after "
          f"{whole['bytesBeforeFirstPacket']:6}/{length:6} bytes  seeks {seeks}")
# The 7 KB CAF fixture is smaller than the first 4 KiB window plus the table: only the others are checked.
moov = [r for r in rows if "tableAtEnd" in dict((c[0], c[3]) for c in cases)[r[0]]]
for label, rel, n, length, whole, _, _ in moov:
    if not whole["bytesBeforeFirstPacket"] < length or not whole["followedByteRequests"]:
        failures.append(f"{label}: {whole['bytesBeforeFirstPacket']} bytes fetched before the first packet "
                        f"of {length} (byte requests {whole['followedByteRequests']})")
    print(f"  table at end {rel}: {whole['bytesBeforeFirstPacket']} of {length} bytes fetched before the first "
          f"packet (requests to {whole['followedByteRequests']})")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
PY
echo "range-player: OK"

# 5. HLS (docs/hls.md): nginx serving the HLS fixtures and a live playlist ffmpeg writes while it runs.
scripts/test-streaming-hls.sh "$inspect" || fail "HLS (scripts/test-streaming-hls.sh)"

echo "test-streaming.sh: all passed"
