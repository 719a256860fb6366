#!/usr/bin/env bash
# Regenerates the HLS fixtures (Fixtures/hls/) and their ffprobe oracles. Run from any directory:
#
#     Fixtures/generate-hls.sh
#
# Needs ffmpeg/ffprobe 5.1, openssl and python3 (Debian 12). Every set is small (3 s of mono AAC):
#   fmp4/      ffmpeg's hls muxer, -hls_segment_type fmp4 (EXT-X-MAP init.mp4 + .m4s fragments)
#   single/    the same with -hls_flags single_file: one .mp4, segments as EXT-X-BYTERANGE sub-ranges
#   ts/        ffmpeg's hls muxer, -hls_segment_type mpegts (needs the MPEG-TS demuxer to parse)
#   packed/    packed audio (RFC 8216 section 3.4): ffmpeg's segment muxer writing ADTS segments and an
#              m3u8 list (ffmpeg 5.1's hls muxer writes MPEG-TS even for .aac names), then each segment
#              prefixed with the ID3 PRIV com.apple.streaming.transportStreamTimestamp by
#              tools/hls_priv.py (the timestamps it wrote are in packed/timestamps.json: the oracle)
#   aes/       packed/'s segments encrypted by `openssl aes-128-cbc` (the oracle is openssl's): the first
#              two with an explicit IV, the rest with the Media Sequence Number as IV (RFC 8216 5.2)
#   mixed/master.m3u8  two variants (packed audio, fMP4) and one EXT-X-MEDIA TYPE=AUDIO rendition
#   mixed/discontinuity.m3u8  packed/ (44.1 kHz) then EXT-X-DISCONTINUITY then fmp4/ (48 kHz): a format change
# Oracles: <playlist>.ffprobe.json = ffprobe -show_streams -count_packets on the playlist.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$HERE/hls"
cd "$HERE/hls"
for tool in ffmpeg ffprobe openssl python3; do command -v $tool >/dev/null || { echo "missing $tool" >&2; exit 1; }; done
FF="ffmpeg -hide_banner -loglevel error -nostdin -y"
BX="-fflags +bitexact -flags +bitexact -map_metadata -1"
rm -rf fmp4 single ts packed aes mixed
mkdir fmp4 single ts packed aes mixed

# fMP4: 48 kHz mono AAC, 1 s target duration.
$FF -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=3" -c:a aac -b:a 32k $BX \
    -f hls -hls_time 1 -hls_playlist_type vod -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 \
    -hls_segment_filename 'fmp4/seg%d.m4s' fmp4/index.m3u8
# One file, byte ranges.
$FF -f lavfi -i "sine=frequency=330:sample_rate=48000:duration=3" -c:a aac -b:a 32k $BX \
    -f hls -hls_time 1 -hls_playlist_type vod -hls_segment_type fmp4 -hls_flags single_file \
    -hls_segment_filename 'single/audio.mp4' single/index.m3u8
# MPEG-TS.
$FF -f lavfi -i "sine=frequency=550:sample_rate=44100:duration=3" -c:a aac -b:a 32k $BX \
    -f hls -hls_time 1 -hls_playlist_type vod -hls_segment_type mpegts -hls_segment_filename 'ts/seg%d.ts' \
    ts/index.m3u8
# Packed ADTS: 44.1 kHz mono.
$FF -f lavfi -i "sine=frequency=660:sample_rate=44100:duration=3" -c:a aac -b:a 32k $BX \
    -f segment -segment_time 1 -segment_format adts -segment_list packed/index.m3u8 -segment_list_type m3u8 \
    'packed/seg%d.aac'
python3 ../tools/hls_priv.py packed/index.m3u8 > packed/timestamps.json

# AES-128: key 000102…0f; IV 0xa0a1…af for the first two segments, the sequence number for the rest.
KEY=000102030405060708090a0b0c0d0e0f
IV=a0a1a2a3a4a5a6a7a8a9aaabacadaeaf
printf "$(echo $KEY | sed 's/../\\x&/g')" > aes/key.bin
{
    echo "#EXTM3U"; echo "#EXT-X-VERSION:3"; echo "#EXT-X-TARGETDURATION:2"; echo "#EXT-X-MEDIA-SEQUENCE:0"
    echo "#EXT-X-PLAYLIST-TYPE:VOD"
    echo "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x$IV"
    n=0
    for seg in packed/seg*.aac; do
        i=${seg#packed/seg}; i=${i%.aac}
        if [ "$n" -eq 2 ]; then echo "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\""; fi
        if [ "$n" -lt 2 ]; then iv=$IV; else iv=$(printf '%032x' "$n"); fi
        openssl aes-128-cbc -e -K $KEY -iv "$iv" -in "$seg" -out "aes/seg$i.aac"
        grep -B1 "^seg$i.aac\$" packed/index.m3u8 | head -1
        echo "seg$i.aac"
        n=$((n + 1))
    done
    echo "#EXT-X-ENDLIST"
} > aes/index.m3u8

cat > mixed/master.m3u8 <<'M3U'
#EXTM3U
#EXT-X-VERSION:7
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="../fmp4/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=40000,CODECS="mp4a.40.2"
../packed/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=48000,AVERAGE-BANDWIDTH=36000,CODECS="mp4a.40.2"
../fmp4/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,AUDIO="aud"
video/index.m3u8
M3U

{
    echo "#EXTM3U"; echo "#EXT-X-VERSION:7"; echo "#EXT-X-TARGETDURATION:2"; echo "#EXT-X-PLAYLIST-TYPE:VOD"
    grep -v '^#EXTM3U\|^#EXT-X-VERSION\|^#EXT-X-MEDIA-SEQUENCE\|^#EXT-X-ALLOW-CACHE\|^#EXT-X-TARGETDURATION\|^#EXT-X-ENDLIST' packed/index.m3u8 | sed 's/^seg/..\/packed\/seg/'
    echo "#EXT-X-DISCONTINUITY"
    grep -v '^#EXTM3U\|^#EXT-X-VERSION\|^#EXT-X-MEDIA-SEQUENCE\|^#EXT-X-TARGETDURATION\|^#EXT-X-PLAYLIST-TYPE\|^#EXT-X-ENDLIST\|^#EXT-X-INDEPENDENT' fmp4/index.m3u8 | sed 's/^seg/..\/fmp4\/seg/; s/URI="init/URI="..\/fmp4\/init/'
    echo "#EXT-X-ENDLIST"
} > mixed/discontinuity.m3u8

# Oracles: ffprobe on each playlist (the hls demuxer; local files need allowed_extensions ALL).
for p in fmp4/index.m3u8 single/index.m3u8 ts/index.m3u8 packed/index.m3u8 aes/index.m3u8; do
    ffprobe -v error -allowed_extensions ALL -show_entries stream=codec_name,sample_rate,channels,nb_read_packets \
        -count_packets -of json "$p" > "${p%.m3u8}.ffprobe.json"
done
