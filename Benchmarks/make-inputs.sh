#!/usr/bin/env bash
# Generates the benchmark inputs (not committed) with real encoders from Debian:
#   60-minute files for every format (WebM/Opus and MKA/FLAC remuxed from the Opus and FLAC files), plus 15 s and 60 s cuts for the 1-byte-feeding benchmark.
#
#   Benchmarks/make-inputs.sh [--out DIR] [--minutes N] [--formats webm,mka,...]
#
# --formats makes only those formats (names as in the file names: mp3cbr, mp3vbr, adts, m4a, wav, aiff,
# caf, flac, vorbis, opus, webm, mka) and what they are remuxed from (webm needs opus, mka flac, m4a adts).
# Default output: Benchmarks/.inputs/ (gitignored). Files that already exist are kept, so the
# script is cheap to rerun. The source is deterministic: two pink-noise generators with fixed seeds
# (left/right), 44.1 kHz, stereo, 16-bit, with a slow amplitude envelope so VBR encoders vary their
# frame sizes like on music. Encoders (Debian 12 packages): lame 3.100, flac 1.4.2, vorbis-tools
# (oggenc) 1.4.2, opus-tools (opusenc) 0.2, ffmpeg 5.1 (native AAC encoder, PCM muxers).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="$here/.inputs"
minutes=60
formats=all
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --minutes) minutes=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        -h|--help) sed -n 2,15p "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

need=()
command -v ffmpeg >/dev/null || need+=(ffmpeg)
command -v lame >/dev/null || need+=(lame)
command -v flac >/dev/null || need+=(flac)
command -v oggenc >/dev/null || need+=(vorbis-tools)
command -v opusenc >/dev/null || need+=(opus-tools)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}" >&2
    if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
    else sudo apt-get update -qq && sudo apt-get install -y -qq "${need[@]}" >/dev/null; fi
fi

# wanted NAME: whether NAME is one of --formats or one that a wanted format is remuxed from.
wanted() {
    [ "$formats" = all ] && return 0
    case ",$formats," in *",$1,"*) return 0 ;; esac
    case "$1" in
        opus) wanted webm ;;
        flac) wanted mka ;;
        adts) wanted m4a ;;
        *) return 1 ;;
    esac
}

mkdir -p "$out"
cd "$out"
ff="ffmpeg -nostdin -v error -y"
bitexact="-fflags +bitexact -flags +bitexact"

# One source per length; the short cuts are the first 15 s / 60 s of the long source.
source_wav() { # name seconds
    local name=$1 seconds=$2
    [ -s "$name" ] && return
    $ff -f lavfi -i "anoisesrc=d=$seconds:c=pink:r=44100:a=0.35:s=1701" \
        -f lavfi -i "anoisesrc=d=$seconds:c=pink:r=44100:a=0.35:s=4242" \
        -filter_complex "[0:a][1:a]join=inputs=2:channel_layout=stereo,volume='0.55+0.4*sin(2*PI*t/11)':eval=frame" \
        $bitexact -c:a pcm_s16le "$name.tmp.wav"
    mv "$name.tmp.wav" "$name"
}

# make OUTPUT command... : runs the command with $SRC set and writes OUTPUT atomically via $TMP.
make_one() {
    local target=$1; shift
    wanted "${target%%-*}" || return 0
    if [ -s "$target" ]; then return; fi
    local tmp="$target.tmp.${target##*.}"
    TMP=$tmp "$@"
    mv "$tmp" "$target"
    echo "made $target ($(stat -c %s "$target") bytes)"
}

encode_set() { # tag source.wav
    local tag=$1 src=$2
    export SRC=$src
    # PCM containers (instant).
    make_one "wav-$tag.wav" sh -c 'cp "$SRC" "$TMP"'
    make_one "aiff-$tag.aiff" sh -c "$ff -i \"\$SRC\" $bitexact -c:a pcm_s16be -f aiff \"\$TMP\""
    make_one "caf-$tag.caf" sh -c "$ff -i \"\$SRC\" $bitexact -c:a pcm_s16le -f caf \"\$TMP\""
    # Encoders, two at a time (2 cores).
    make_one "mp3cbr-$tag.mp3" sh -c 'lame --quiet --noreplaygain -b 128 "$SRC" "$TMP"' &
    make_one "mp3vbr-$tag.mp3" sh -c 'lame --quiet --noreplaygain -V 2 "$SRC" "$TMP"'
    wait
    make_one "adts-$tag.aac" sh -c "$ff -i \"\$SRC\" $bitexact -c:a aac -b:a 128k -f adts \"\$TMP\""
    # M4A: the same AAC stream remuxed (moov first, the streaming-friendly layout).
    make_one "m4a-$tag.m4a" sh -c "$ff -i \"adts-$tag.aac\" $bitexact -c:a copy -movflags +faststart -f ipod \"\$TMP\"" &
    make_one "flac-$tag.flac" sh -c 'flac --silent -5 -o "$TMP" "$SRC"'
    wait
    make_one "vorbis-$tag.ogg" sh -c 'oggenc --quiet -q 4 -s 1234 -o "$TMP" "$SRC"' &
    make_one "opus-$tag.opus" sh -c 'opusenc --quiet --bitrate 96 --serial 5678 "$SRC" "$TMP"'
    wait
    # Matroska: the same Opus and FLAC streams remuxed (ffmpeg's WebM and Matroska muxers: Clusters of
    # about 5 s, Cues after the Clusters).
    make_one "webm-$tag.webm" sh -c "$ff -i \"opus-$tag.opus\" $bitexact -c:a copy -f webm \"\$TMP\""
    make_one "mka-$tag.mka" sh -c "$ff -i \"flac-$tag.flac\" $bitexact -c:a copy -f matroska \"\$TMP\""
}

long_seconds=$((minutes * 60))
source_wav "source-${minutes}m.wav" "$long_seconds"
source_wav source-60s.wav 60
source_wav source-15s.wav 15
encode_set 15s source-15s.wav
encode_set 60s source-60s.wav
encode_set "${minutes}m" "source-${minutes}m.wav"
echo "inputs ready in $out"
ls -l "$out" | grep -v tmp
