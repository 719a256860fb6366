#!/usr/bin/env bash
# Regenerates every chunk-container fixture (WAVE/RF64/BW64/RIFX, AIFF/AIFC, CAF,
# NeXT/Sun .au) plus Fixtures/malformed/ from real encoders and deterministic
# sources. Idempotent; run from any directory:
#
#     Fixtures/generate.sh && Fixtures/make-oracle.sh
#
# Needs: ffmpeg/ffprobe 5.1 (Debian 12), sox 14.4.2 (+libsox-fmt-all),
# sndfile-programs (libsndfile 1.2.0: sndfile-convert, sndfile-metadata-set),
# python3. Every command run is recorded in the provenance table of README.md
# (between the provenance markers), which this script rewrites.
#
# Variables that appear in the recorded commands:
#   $FF   ffmpeg -hide_banner -loglevel error -nostdin -y
#   $BX   -fflags +bitexact -flags +bitexact -map_metadata -1   (ffmpeg output options)
#   $SIG  the lavfi filtergraph named in the "signal" column
#   $OUT  the fixture path (relative to Fixtures/)
#   $T    a scratch directory (intermediate files, deleted afterwards)
#   $DERIVE  python3 tools/derive.py
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"

for tool in ffmpeg ffprobe sox sndfile-convert sndfile-metadata-set python3; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing $tool" >&2; exit 1; }
done

export LC_ALL=C TZ=UTC
FF="ffmpeg -hide_banner -loglevel error -nostdin -y"
BX="-fflags +bitexact -flags +bitexact -map_metadata -1"
DERIVE="python3 tools/derive.py"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT

DIRS=(wav aiff caf au malformed)
# Remove previous media files of these folders. JSON stays: oracles are make-oracle.sh's job
# (it deletes oracles whose fixture is gone), malformed/expected.json is hand-written (the
# outcomes the tests expect), and malformed/manifest.json is rewritten by tools/make_malformed.py.
for d in "${DIRS[@]}"; do
    mkdir -p "$d"
    find "$d" -maxdepth 1 -type f ! -name '*.json' -delete
done

PROV="$T/provenance.tsv"
: > "$PROV"

# ------------------------------------------------------------------ signals
# sine RATE DUR CH: one `sine` source per channel (440, 550, 660, 770, 880, 990 Hz),
# joined in channel order. The `sine` source is integer/table based: bit-exact.
layout_for() { case "$1" in 1) echo mono;; 2) echo stereo;; 6) echo 5.1;; *) echo "${1}c";; esac; }
FREQS=(440 550 660 770 880 990)
sine() {
    local rate=$1 dur=$2 ch=$3 i g="" labels=""
    if [ "$ch" -eq 1 ]; then
        SIG="sine=frequency=440:sample_rate=$rate:duration=$dur"
    else
        for ((i = 0; i < ch; i++)); do
            g+="sine=frequency=${FREQS[$i]}:sample_rate=$rate:duration=$dur[c$i];"
            labels+="[c$i]"
        done
        SIG="${g}${labels}join=inputs=$ch:channel_layout=$(layout_for "$ch")"
    fi
    if [ "$ch" -eq 1 ]; then SIGDESC="sine 440 Hz"; else SIGDESC="sine ${FREQS[*]:0:$ch} Hz (one per channel)"; fi
    SIGDESC+=", $rate Hz, $dur s, ${ch} ch"
}
# noise RATE DUR CH SEED: white noise (anoisesrc, amplitude 0.5), seeds SEED, SEED+1, ...
# per channel. Used for 24/32-bit and float files so that low-order bytes are not zero.
noise() {
    local rate=$1 dur=$2 ch=$3 seed=$4 i g="" labels=""
    if [ "$ch" -eq 1 ]; then
        SIG="anoisesrc=color=white:sample_rate=$rate:duration=$dur:amplitude=0.5:seed=$seed"
    else
        for ((i = 0; i < ch; i++)); do
            g+="anoisesrc=color=white:sample_rate=$rate:duration=$dur:amplitude=0.5:seed=$((seed + i))[c$i];"
            labels+="[c$i]"
        done
        SIG="${g}${labels}join=inputs=$ch:channel_layout=$(layout_for "$ch")"
    fi
    if [ "$ch" -eq 1 ]; then SIGDESC="white noise seed $seed"; else SIGDESC="white noise seeds $seed..$((seed + ch - 1))"; fi
    SIGDESC+=", $rate Hz, $dur s, ${ch} ch"
}

# mk OUT EXERCISES NOTES COMMAND
# Runs COMMAND (a shell string using $FF $BX $SIG $OUT $T $DERIVE) and records it.
mk() {
    OUT="$1"
    local what="$2" notes="$3" cmd="$4"
    eval "$cmd"
    [ -s "$OUT" ] || [ "${ALLOW_EMPTY:-0}" = 1 ] || { echo "generate.sh: $OUT was not written" >&2; exit 1; }
    printf '%s\t%s\t%s\t%s\t%s\n' "$OUT" "$cmd" "$SIGDESC" "$what" "$notes" >> "$PROV"
}
# the plain ffmpeg recipe: mk_ff OUT EXERCISES NOTES <ffmpeg output options...>
mk_ff() {
    local out="$1" what="$2" notes="$3"; shift 3
    mk "$out" "$what" "$notes" "\$FF -filter_complex \"\$SIG\" \$BX $* \"\$OUT\""
}

# ======================================================================= WAVE
# ---- plain PCM, every sample format
sine 8000 0.3 1
mk_ff wav/pcm_u8-8000-1ch.wav "8-bit unsigned PCM (fmt tag 1, 16-byte fmt)" "" -c:a pcm_u8
sine 22050 0.1 1
mk_ff wav/pcm_u8-22050-1ch-odd.wav "odd data size (2205 bytes) followed by a pad byte; RIFF size counts the pad" "" -c:a pcm_u8
sine 8000 0.3 1
mk_ff wav/pcm_s16le-8000-1ch.wav "16-bit PCM mono at 8 kHz, canonical 44-byte header" "" -c:a pcm_s16le
sine 44100 0.2 2
mk_ff wav/pcm_s16le-44100-2ch.wav "canonical 16-bit stereo WAVE" "" -c:a pcm_s16le
sine 96000 0.1 2
mk_ff wav/pcm_s16le-96000-2ch.wav "96 kHz; ffmpeg writes WAVE_FORMAT_EXTENSIBLE (0xFFFE) because rate > 48 kHz" "" -c:a pcm_s16le
sine 48000 0.1 6
mk_ff wav/pcm_s16le-48000-6ch.wav "6-channel 5.1 WAVE_FORMAT_EXTENSIBLE, dwChannelMask 0x3F, KSDATAFORMAT_SUBTYPE_PCM" "" -c:a pcm_s16le
noise 44100 0.1 2 1
mk_ff wav/pcm_s24le-44100-2ch.wav "24-bit stereo WAVE_FORMAT_EXTENSIBLE (cbSize 22, wValidBitsPerSample 24, mask 0x3)" "" -c:a pcm_s24le
noise 48000 0.1 2 3
mk wav/pcm_s24le-48000-2ch-plainfmt.wav "24-bit PCM with a plain 16-byte fmt (tag 1, no extensible)" "sox wavpcm type forces the non-extensible header" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s24le "$T/s24.wav" && sox -D "$T/s24.wav" -t wavpcm "$OUT"'
noise 48000 0.1 2 5
mk_ff wav/pcm_s32le-48000-2ch.wav "32-bit integer PCM, extensible" "" -c:a pcm_s32le
noise 44100 0.1 2 7
mk_ff wav/pcm_f32le-44100-2ch.wav "32-bit float, extensible with KSDATAFORMAT_SUBTYPE_IEEE_FLOAT, plus fact chunk" "" -c:a pcm_f32le
noise 48000 0.1 1 9
mk wav/pcm_f32le-48000-1ch-sox.wav "32-bit float with plain fmt tag 3 (WAVE_FORMAT_IEEE_FLOAT, 18-byte fmt, cbSize 0) and fact" "sox" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_f32le "$T/f32.wav" && sox -V1 -D "$T/f32.wav" -t wav -e floating-point -b 32 "$OUT"'
noise 44100 0.1 1 10
mk_ff wav/pcm_f64le-44100-1ch.wav "64-bit float, extensible IEEE_FLOAT subtype, fact" "" -c:a pcm_f64le
# ---- companded and ADPCM
sine 8000 0.3 1
mk_ff wav/pcm_alaw-8000-1ch.wav "A-law (tag 6), 18-byte fmt with cbSize 0, fact chunk" "" -c:a pcm_alaw
mk_ff wav/pcm_mulaw-8000-1ch.wav "mu-law (tag 7), 18-byte fmt, fact chunk" "" -c:a pcm_mulaw
sine 22050 0.3 1
mk_ff wav/adpcm_ima_wav-22050-1ch.wav "IMA ADPCM (tag 0x11), block_align 1024, samplesPerBlock 2041, fact" "ffprobe groups several blocks per packet" -c:a adpcm_ima_wav
mk_ff wav/adpcm_ms-22050-1ch.wav "MS ADPCM (tag 2) with coefficient table in fmt (cbSize 32), fact" "ffprobe groups several blocks per packet" -c:a adpcm_ms
sine 44100 0.3 2
mk_ff wav/adpcm_ima_wav-44100-2ch.wav "IMA ADPCM stereo (block_align 1024, 1017 samples per block)" "ffprobe groups several blocks per packet" -c:a adpcm_ima_wav
mk_ff wav/adpcm_ms-44100-2ch.wav "MS ADPCM stereo (block_align 1024, 1012 samples per block)" "ffprobe groups several blocks per packet" -c:a adpcm_ms
sine 8000 0.3 1
mk wav/adpcm_ima_wav-8000-1ch-sox.wav "IMA ADPCM from a second encoder (sox: block_align 256, 505 samples per block)" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/ima.wav" && sox -D "$T/ima.wav" -t wav -e ima-adpcm "$OUT"'
mk wav/adpcm_ms-8000-1ch-sox.wav "MS ADPCM from sox (block_align 256, 500 samples per block)" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/ms.wav" && sox -D "$T/ms.wav" -t wav -e ms-adpcm "$OUT"'
sine 44100 0.2 2
mk_ff wav/mp3-44100-2ch.wav "MPEG Layer III in WAVE (tag 0x55, MPEGLAYER3WAVEFORMAT, 30-byte fmt), fact" "ffprobe: one MP3 frame per packet" -c:a libmp3lame -b:a 64k
# ---- metadata chunks
sine 44100 0.1 2
mk_ff wav/pcm_s16le-44100-2ch-info.wav "LIST/INFO before data: INAM IART IPRD ICMT ICRD IGNR ICOP IPRT; odd-size sub-chunks (ICRD 11 bytes) with pad" "" \
    -c:a pcm_s16le -metadata title="'Test Title'" -metadata artist="'Test Artist'" -metadata album="'Test Album'" \
    -metadata comment="'A comment'" -metadata date=2024-05-06 -metadata genre=Electronic -metadata copyright=CC0 -metadata track=3
sine 48000 0.1 2
mk_ff wav/pcm_s16le-48000-2ch-bext.wav "bext (EBU Tech 3285) chunk before data: description, originator, reference, date/time, time reference, UMID, coding history" "" \
    -c:a pcm_s16le -write_bext 1 -metadata description="'Bext description'" -metadata originator=Fixtures \
    -metadata originator_reference=REF0001 -metadata origination_date=2024-05-06 -metadata origination_time=12:34:56 \
    -metadata time_reference=12345 -metadata coding_history="'A=PCM,F=48000,W=16,M=stereo,T=ffmpeg'" \
    -metadata umid=0x060A2B340101010101010F0013000000
sine 44100 0.1 2
mk_ff wav/pcm_s16le-44100-2ch-peak.wav "a real chunk after data: ffmpeg -write_peak on appends a levl (peak envelope) chunk" "" -c:a pcm_s16le -write_peak on
mk wav/pcm_s16le-44100-2ch-id3.wav "an 'id3 ' chunk (84-byte ID3v2.3 tag: TIT2/TPE1/TALB) after data" \
    "derived: the ID3 payload is the 'ID3 ' chunk ffmpeg's AIFF muxer wrote (-write_id3v2 1 -id3v2_version 3), inserted by tools/derive.py; ffprobe 5.1 does show these tags (title/artist/album)" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16be -write_id3v2 1 -id3v2_version 3 -metadata title="ID3 Title" -metadata artist="ID3 Artist" -metadata album="ID3 Album" "$T/id3.aiff" && $FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/id3.wav" && $DERIVE insert "$T/id3.wav" "$OUT" --id "id3 " --payload-of "$T/id3.aiff:ID3 " --after data'
sine 22050 0.1 1
mk wav/pcm_s16le-22050-1ch-oddchunk.wav "an unknown odd-size chunk ('ODDc', 7 bytes + pad byte) between fmt and data" \
    "derived: ffmpeg WAV + chunk inserted by tools/derive.py" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/odd.wav" && $DERIVE insert "$T/odd.wav" "$OUT" --id ODDc --text ABCDEFG --before data'
mk wav/pcm_s16le-22050-1ch-list-after-data.wav "LIST/INFO moved after data (tags only known at the end)" \
    "derived: ffmpeg WAV with metadata, LIST chunk moved after data by tools/derive.py" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -metadata title="After Data" -metadata artist="Fixture Artist" "$T/la.wav" && $DERIVE move "$T/la.wav" "$OUT" --id LIST --after data'
mk wav/pcm_s16le-22050-1ch-sndfile-info-after-data.wav "LIST/INFO after data as libsndfile really writes it (sndfile-metadata-set): INAM/IART/ICMT, NUL-padded values" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/sf.wav" && sndfile-metadata-set --str-title "Sine A440" --str-artist "Fixture Artist" --str-comment "LIST after data" "$T/sf.wav" "$OUT" >/dev/null'
# ---- streaming / unknown sizes
sine 44100 0.1 2
mk wav/pcm_s16le-44100-2ch-pipe.wav "RIFF and data sizes 0xFFFFFFFF (ffmpeg writing to a pipe): read data to end of file" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -f wav - | cat > "$OUT"'
sine 8000 0.1 1
mk wav/pcm_s16le-8000-1ch-sox-pipe.wav "sox writing to a pipe (input of unknown length): RIFF size 0x7FFFF024, data size 0x7FFFF000 (placeholders far beyond EOF)" "ffprobe reads to EOF" \
    '$FF -filter_complex "$SIG" $BX -f s16le - | sox -V1 -t raw -r 8000 -c 1 -b 16 -e signed-integer - -t wav - | cat > "$OUT"'
sine 44100 0.1 2
mk wav/pcm_s16le-44100-2ch-datasize0.wav "RIFF size 0 and data size 0 but 17640 bytes of audio follow (streaming writer that never patched the header)" \
    "derived: ffmpeg pipe output with both size fields set to 0 by tools/derive.py" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -f wav - | cat > "$T/d0.wav" && $DERIVE set-sizes "$T/d0.wav" "$OUT" --riff 0 --chunk data=0'
mk wav/pcm_s16le-44100-2ch-empty.wav "a valid file with zero audio frames (data size 0, nothing after it)" "" \
    '$FF -filter_complex "$SIG,atrim=end_sample=0" $BX -c:a pcm_s16le "$OUT"'
# ---- byte order and 64-bit variants
sine 44100 0.1 2
mk wav/pcm_s16be-44100-2ch-rifx.wav "RIFX: big-endian RIFF sizes, fmt fields and samples" "sox -B. ffprobe 5.1 reports codec pcm_s16le (and decodes byte-swapped noise): the oracle codec_name is wrong, packets/sizes are right; expect big-endian 16-bit" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/rifx.wav" && sox -D "$T/rifx.wav" -B -t wav "$OUT"'
mk_ff wav/pcm_s16le-44100-2ch-rf64.wav "RF64 (EBU Tech 3306): RIFF size and data size 0xFFFFFFFF, real sizes in ds64 (28-byte, table length 0)" "" -c:a pcm_s16le -rf64 always
mk wav/pcm_s16le-44100-2ch-rf64-pipe.wav "RF64 written to a pipe: ds64 all zero, data size 0xFFFFFFFF" \
    "ffprobe finds the stream but reports 0 packets: oracle unusable for packets; expected: data runs to end of file (17640 bytes, 4410 frames) per EBU Tech 3306 streaming practice" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -rf64 always -f wav - | cat > "$OUT"'
mk wav/pcm_s16le-44100-2ch-bw64.wav "BW64 (ITU-R BS.2088) magic with ds64" \
    "derived: ffmpeg RF64 output with the magic changed to BW64 by tools/derive.py (BS.2088 keeps the RF64 layout); ffprobe 5.1 reads BW64 like RF64" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -rf64 always "$T/bw.wav" && $DERIVE magic "$T/bw.wav" "$OUT" BW64'
sine 8000 0.1 1
mk wav/pcm_s16le-8000-1ch-rf64-sndfile.wav "RF64 from a second writer (libsndfile): ds64 then extensible fmt" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/sf64.wav" && sndfile-convert -pcm16 "$T/sf64.wav" "$T/sf64.rf64" && cp "$T/sf64.rf64" "$OUT"'

# ======================================================================= AIFF
sine 8000 0.3 1
mk_ff aiff/pcm_s8-8000-1ch.aiff "AIFF 8-bit signed, 18-byte COMM" "" -c:a pcm_s8
sine 22050 0.1 1
mk_ff aiff/pcm_s8-22050-1ch-odd.aiff "odd SSND size (2205 + 8) with a pad byte" "" -c:a pcm_s8
sine 44100 0.2 2
mk_ff aiff/pcm_s16be-44100-2ch.aiff "canonical AIFF 16-bit stereo" "" -c:a pcm_s16be
noise 48000 0.1 2 11
mk_ff aiff/pcm_s24be-48000-2ch.aiff "AIFF 24-bit" "" -c:a pcm_s24be
noise 96000 0.1 1 13
mk_ff aiff/pcm_s32be-96000-1ch.aiff "AIFF 32-bit, 96 kHz (extended-float rate 0x400F BB80...)" "" -c:a pcm_s32be
sine 22050 0.1 1
mk_ff aiff/pcm_s16be-22050-1ch-text.aiff "NAME, AUTH, (c) , ANNO text chunks before COMM (ffmpeg pads odd strings with a NUL inside the chunk size)" "" \
    -c:a pcm_s16be -metadata title="'Sine A440'" -metadata author="'Fixture Author'" -metadata copyright="'Public domain'" -metadata comment="'Annotation text'"
mk aiff/pcm_s16be-22050-1ch-sndfile-text.aiff "text chunks after COMM as libsndfile writes them: NAME (9 bytes), (c)  (13), AUTH, ANNO (15): odd sizes followed by pad bytes" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -metadata title="Sine A440" -metadata artist="Fixture Artist" -metadata copyright="Public domain" -metadata comment="Annotation text" "$T/sft.wav" && sndfile-convert "$T/sft.wav" "$OUT" >/dev/null'
sine 44100 0.1 2
mk_ff aiff/pcm_s16be-44100-2ch-id3.aiff "'ID3 ' chunk (84-byte ID3v2.4 tag: TIT2/TPE1/TALB) after SSND; ffmpeg also writes a NAME chunk for the title" "ffprobe shows the ID3 tags" \
    -c:a pcm_s16be -write_id3v2 1 -metadata title="'ID3 Title'" -metadata artist="'ID3 Artist'" -metadata album="'ID3 Album'"
sine 8000 0.1 1
mk aiff/pcm_s16be-8000-1ch-comt.aiff "COMT (comments) chunk written by sox before COMM" \
    "derived: sox output with the COMT timeStamp (wall clock) set to 0 by tools/derive.py for reproducibility; ffprobe does not show COMT" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/comt.wav" && sox -D "$T/comt.wav" --comment "Hello from SoX" -t aiff "$T/comt.aiff" && $DERIVE aiff-comt-timestamp "$T/comt.aiff" "$OUT" --value 0'
sine 44100 0.1 2
mk aiff/pcm_s16be-44100-2ch-pipe.aiff "ffmpeg AIFF to a pipe: FORM size 0, numSampleFrames 0, SSND size 0, audio follows to EOF" "ffprobe fails (Invalid data, ok false): oracle unusable; expected by hand: pcm_s16be 44100 Hz 2 ch, audio from offset 54 to EOF = 17640 bytes = 4410 frames" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16be -f aiff - | cat > "$OUT"'
sine 8000 0.1 1
mk aiff/pcm_s16be-8000-1ch-sox-pipe.aiff "sox AIFF to a pipe: placeholder sizes (FORM 0x7F00002E, numSampleFrames 0x3F800000, SSND 0x7F000008) far beyond EOF" "ffprobe reads to EOF but reports nb_frames/duration_ts 1065353216 from COMM" \
    '$FF -filter_complex "$SIG" $BX -f s16le - | sox -V1 -t raw -r 8000 -c 1 -b 16 -e signed-integer - --comment "" -t aiff - | cat > "$OUT"'
# ---- AIFC
sine 44100 0.1 2
mk aiff/pcm_s16be-44100-2ch-none.aifc "AIFC with FVER, compressionType NONE, name 'not compressed'" "sox" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/none.wav" && sox -D "$T/none.wav" -t aifc "$OUT"'
mk aiff/pcm_s16be-44100-2ch-twos.aifc "AIFC compressionType 'twos' (big-endian signed 16-bit, QuickTime name)" \
    "derived: the sox NONE file with compressionType changed to twos by tools/derive.py (identical data layout)" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/twos.wav" && sox -D "$T/twos.wav" -t aifc "$T/twos.aifc" && $DERIVE aifc-compression "$T/twos.aifc" "$OUT" --type twos --name ""'
mk_ff aiff/pcm_s16le-44100-2ch-sowt.aifc "AIFC 'sowt' (little-endian 16-bit)" "" -c:a pcm_s16le -f aiff
noise 44100 0.1 1 15
mk_ff aiff/pcm_f32be-44100-1ch-fl32.aifc "AIFC 'fl32' 32-bit float" "" -c:a pcm_f32be -f aiff
noise 44100 0.1 1 16
mk_ff aiff/pcm_f64be-44100-1ch-fl64.aifc "AIFC 'fl64' 64-bit float" "" -c:a pcm_f64be -f aiff
sine 8000 0.3 1
mk_ff aiff/pcm_mulaw-8000-1ch-ulaw.aifc "AIFC 'ulaw' (sampleSize 8 in COMM)" "" -c:a pcm_mulaw -f aiff
mk_ff aiff/pcm_alaw-8000-1ch-alaw.aifc "AIFC 'alaw'" "" -c:a pcm_alaw -f aiff
mk_ff aiff/pcm_u8-8000-1ch-raw.aifc "AIFC 'raw ' (8-bit unsigned)" "" -c:a pcm_u8 -f aiff
sine 22050 0.3 1
mk_ff aiff/adpcm_ima_qt-22050-1ch-ima4.aifc "AIFC 'ima4': 34-byte packets of 64 frames; ffmpeg writes numSampleFrames = packet count (104)" "" -c:a adpcm_ima_qt -f aiff
sine 44100 0.3 2
mk_ff aiff/adpcm_ima_qt-44100-2ch-ima4.aifc "AIFC 'ima4' stereo: 68-byte packets (34 per channel)" "" -c:a adpcm_ima_qt -f aiff
noise 48000 0.1 2 17
mk aiff/pcm_s24be-48000-2ch-none.aifc "AIFC NONE 24-bit" "sox" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s24le "$T/n24.wav" && sox -D "$T/n24.wav" -t aifc "$OUT"'
mk aiff/pcm_s24be-48000-2ch-in24.aifc "AIFC 'in24' (big-endian 24-bit integer)" \
    "derived: sox NONE 24-bit AIFC with compressionType changed to in24 by tools/derive.py (identical data layout)" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s24le "$T/i24.wav" && sox -D "$T/i24.wav" -t aifc "$T/i24.aifc" && $DERIVE aifc-compression "$T/i24.aifc" "$OUT" --type in24 --name ""'
noise 48000 0.1 1 19
mk aiff/pcm_s32be-48000-1ch-in32.aifc "AIFC 'in32' (big-endian 32-bit integer)" \
    "derived: sox NONE 32-bit AIFC with compressionType changed to in32 by tools/derive.py (identical data layout)" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s32le "$T/i32.wav" && sox -D "$T/i32.wav" -t aifc "$T/i32.aifc" && $DERIVE aifc-compression "$T/i32.aifc" "$OUT" --type in32 --name ""'
sine 44100 0.1 2
mk aiff/pcm_s16be-44100-2ch-nocompression.aifc "FORM type AIFC but an 18-byte COMM without compressionType/name (seen in old writers): treat as NONE" \
    "derived: sox NONE AIFC with COMM cut to 18 bytes by tools/derive.py; ffprobe 5.1 reads it as pcm_s16be" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/nc.wav" && sox -D "$T/nc.wav" -t aifc "$T/nc.aifc" && $DERIVE aifc-strip-compression "$T/nc.aifc" "$OUT"'

# ======================================================================== CAF
sine 44100 0.2 2
mk_ff caf/pcm_s16le-44100-2ch.caf "CAF lpcm little-endian 16-bit (formatFlags 2), chan chunk (kAudioChannelLayoutTag_Stereo), data edit count" "" -c:a pcm_s16le
noise 48000 0.1 2 21
mk_ff caf/pcm_s24le-48000-2ch.caf "CAF lpcm 24-bit little-endian" "" -c:a pcm_s24le
noise 44100 0.1 1 22
mk_ff caf/pcm_f32le-44100-1ch.caf "CAF lpcm float (formatFlags 3)" "" -c:a pcm_f32le
sine 8000 0.3 1
mk_ff caf/pcm_s8-8000-1ch.caf "CAF lpcm 8-bit signed" "" -c:a pcm_s8
mk_ff caf/pcm_mulaw-8000-1ch.caf "CAF ulaw" "" -c:a pcm_mulaw
mk_ff caf/pcm_alaw-8000-1ch.caf "CAF alaw" "" -c:a pcm_alaw
sine 48000 0.1 6
mk_ff caf/pcm_s16le-48000-6ch.caf "CAF 6 channels, chan chunk with layout tag 0x00790006 (kAudioChannelLayoutTag_MPEG_5_1_A)" "ffprobe maps the tag back to 5.1(side), not the 5.1 that was written" -c:a pcm_s16le
sine 8000 0.1 1
mk caf/pcm_s16be-8000-1ch-free.caf "CAF from libsndfile: big-endian lpcm, a 'free' chunk pads the header so audio starts at 4096" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/free.wav" && sndfile-convert -pcm16 "$T/free.wav" "$T/free.caf" && cp "$T/free.caf" "$OUT"'
sine 44100 0.2 2
mk_ff caf/alac-44100-2ch.caf "ALAC: 48-byte kuki ('frma' atom + 36-byte 'alac' atom), pakt after data with varints, 4096 frames per packet" "ffprobe: duration null per packet; nb_frames = packets x 4096 (pakt priming/remainder ignored)" -c:a alac
SIG="anullsrc=r=8000:cl=mono,atrim=end_sample=10000"; SIGDESC="digital silence, 8000 Hz, 10000 frames, 1 ch"
mk_ff caf/alac-8000-1ch-silence.caf "small ALAC mono: 3 packets (4096, 4096, 1808 frames), 1-byte pakt varints; source of the malformed pakt/kuki cases" "ffmpeg writes mNumberValidFrames 12288 (3 x 4096) and remainder 0, although only 10000 frames were encoded" -c:a alac
sine 44100 0.2 2
mk caf/alac-44100-2ch-sndfile.caf "ALAC from libsndfile: 24-byte ALACSpecificConfig kuki (no atom header), pakt before data with remainder frames" "ffprobe ignores the pakt remainder" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/alac.wav" && sndfile-convert -alac16 "$T/alac.wav" "$T/alac.caf" && cp "$T/alac.caf" "$OUT"'
sine 44100 0.3 2
mk_ff caf/adpcm_ima_qt-44100-2ch.caf "CAF ima4: 68-byte packets of 64 frames (bytesPerPacket/framesPerPacket in desc)" "" -c:a adpcm_ima_qt
noise 48000 0.2 1 23
mk_ff caf/opus-48000-1ch.caf "Opus in CAF (framesPerPacket 960, no kuki), pakt after data" "" -c:a libopus -b:a 32k
noise 48000 0.2 2 24
mk_ff caf/opus-48000-2ch.caf "Opus stereo in CAF" "" -c:a libopus -b:a 48k
sine 44100 0.2 2
mk_ff caf/mp3-44100-2ch.caf "MPEG Layer III in CAF ('.mp3', 1152 frames per packet, pakt)" "" -c:a libmp3lame -b:a 64k
sine 44100 0.1 2
mk caf/pcm_s16le-44100-2ch-pipe.caf "data chunk size -1 (ffmpeg writing to a pipe): audio runs to end of file" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -f caf - | cat > "$OUT"'
mk_ff caf/pcm_s16le-44100-2ch-info.caf "'info' chunk (title, artist, album, comment, date, genre) before data" "" \
    -c:a pcm_s16le -metadata title="'Test Title'" -metadata artist="'Test Artist'" -metadata album="'Test Album'" \
    -metadata comment="'A comment'" -metadata date=2024 -metadata genre=Electronic
sine 22050 0.1 1
mk caf/pcm_s16be-22050-1ch-sndfile-info.caf "'info' chunk as libsndfile writes it (title, copyright, artist, comment, date, album) then 'free', data at 4096" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le -metadata title="Sine A440" -metadata artist="Fixture Artist" -metadata copyright="Public domain" -metadata comment="Annotation text" -metadata album="Fixtures" -metadata date=2024 "$T/sfi.wav" && sndfile-convert -pcm16 "$T/sfi.wav" "$T/sfi.caf" && cp "$T/sfi.caf" "$OUT"'

# ========================================================================= AU
sine 8000 0.3 1
mk_ff au/pcm_mulaw-8000-1ch.au "AU encoding 1 (mu-law); ffmpeg writes an 8-byte empty annotation (data offset 32)" "" -c:a pcm_mulaw
mk_ff au/pcm_alaw-8000-1ch.au "AU encoding 27 (A-law)" "" -c:a pcm_alaw
mk_ff au/pcm_s8-8000-1ch.au "AU encoding 2 (8-bit linear)" "" -c:a pcm_s8
sine 22050 0.2 1
mk_ff au/pcm_s16be-22050-1ch.au "AU encoding 3 (16-bit linear)" "" -c:a pcm_s16be
noise 44100 0.1 2 25
mk_ff au/pcm_s24be-44100-2ch.au "AU encoding 4 (24-bit linear), stereo" "" -c:a pcm_s24be
noise 48000 0.1 1 27
mk_ff au/pcm_s32be-48000-1ch.au "AU encoding 5 (32-bit linear)" "" -c:a pcm_s32be
noise 44100 0.1 1 28
mk_ff au/pcm_f32be-44100-1ch.au "AU encoding 6 (32-bit float)" "" -c:a pcm_f32be
noise 8000 0.2 1 29
mk_ff au/pcm_f64be-8000-1ch.au "AU encoding 7 (64-bit float)" "" -c:a pcm_f64be
sine 8000 0.3 1
mk_ff au/pcm_mulaw-8000-1ch-annotation.au "annotation 'Title=...\\nArtist=...' (ffmpeg key=value form, NUL terminated), data offset 56" "ffprobe shows the tags" \
    -c:a pcm_mulaw -metadata title="'AU Title'" -metadata artist="'AU Artist'"
sine 8000 0.1 1
mk au/pcm_s16be-8000-1ch-sox.au "free-text annotation 'Hello from SoX' (sox), data offset 40" "ffprobe does not show it" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/sx.wav" && sox -D "$T/sx.wav" --comment "Hello from SoX" -t au "$OUT"'
mk au/pcm_s16be-8000-1ch-sndfile.au "minimal header: data offset exactly 24, no annotation (libsndfile)" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/sf.wav" && sndfile-convert -pcm16 "$T/sf.wav" "$T/sf.au" && cp "$T/sf.au" "$OUT"'
sine 8000 0.3 1
mk au/pcm_mulaw-8000-1ch-pipe.au "data size 0xFFFFFFFF (ffmpeg writing to a pipe): read to end of file" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_mulaw -f au - | cat > "$OUT"'
sine 8000 0.1 1
mk au/pcm_s16be-8000-1ch-sox-pipe.au "data size 0xFFFFFFFF from sox writing to a pipe, annotation 'Processed by SoX'" "" \
    '$FF -filter_complex "$SIG" $BX -f s16le - | sox -V1 -t raw -r 8000 -c 1 -b 16 -e signed-integer - -t au - | cat > "$OUT"'

# ============================================================== MPEG audio
# MP3 (Layer III) and MP2 (Layer II) from real encoders: LAME 3.100 (CBR, VBR,
# ABR, MPEG-2/2.5 rates, CRC, free format, --nogap), ffmpeg (libmp3lame with and
# without Xing, mp2), TwoLAME 0.4.0 (Layer II CBR/VBR/CRC/free format); tags from
# ffmpeg, eyeD3 and mutagen; a few derived files (junk, concatenation, two
# ID3v2 tags) made by tools/derive_mpeg.py. No Debian tool encodes Layer I.
# Extra variables in the recorded commands:
#   $LAME     lame --quiet
#   $TWOLAME  twolame --quiet
#   $MDERIVE  python3 tools/derive_mpeg.py
#   $MUTAGEN  /usr/bin/python3 tools/tag_mutagen.py (Debian's python3-mutagen)
for tool in lame twolame eyeD3; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing $tool" >&2; exit 1; }
done
/usr/bin/python3 -c 'import mutagen' 2>/dev/null || { echo "generate.sh: missing python3-mutagen" >&2; exit 1; }
mkdir -p mpeg
find mpeg -maxdepth 1 -type f ! -name '*.ffprobe.json' -delete
DIRS+=(mpeg)
LAME="lame --quiet"
TWOLAME="twolame --quiet"
MDERIVE="python3 tools/derive_mpeg.py"
MUTAGEN="/usr/bin/python3 tools/tag_mutagen.py"
# The current signal as 16-bit WAV in $T/in.wav (the LAME/TwoLAME input).
WAVIN='$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/in.wav"'

# ---- LAME, MPEG-1
sine 44100 1 2
mk mpeg/mp3-44100-2ch-lame-cbr128.mp3 "LAME CBR 128 kbit/s: Info tag + LAME extension (delay 576), 417/418-byte frames (padding)" "" \
    "$WAVIN"' && $LAME -b 128 "$T/in.wav" "$OUT"'
mk mpeg/mp3-44100-2ch-lame-notag.mp3 "LAME CBR 128 kbit/s without Xing/Info tag (-t): no gapless info, first frame is audio" "" \
    "$WAVIN"' && $LAME -t -b 128 "$T/in.wav" "$OUT"'
mk mpeg/mp3-44100-2ch-lame-v5.mp3 "LAME VBR -V5: Xing tag with TOC, variable frame sizes" "" \
    "$WAVIN"' && $LAME -V5 "$T/in.wav" "$OUT"'
mk mpeg/mp3-44100-2ch-lame-abr96.mp3 "LAME ABR 96 kbit/s (--abr, VBR method 3 in the LAME tag)" "" \
    "$WAVIN"' && $LAME --abr 96 --resample 44.1 "$T/in.wav" "$OUT"'
mk mpeg/mp3-44100-2ch-lame-free.mp3 "free-format Layer III (bitrate_index 0, 200 kbit/s): frame length from the next sync; Info tag in a free-format frame" \
    "ffprobe 5.1 fails (Invalid frame size): oracle unusable; expectation by hand (frames of 653/654 bytes, 40 audio frames per the Info tag)" \
    "$WAVIN"' && $LAME --freeformat -b 200 "$T/in.wav" "$OUT"'
noise 44100 0.5 2 31
mk mpeg/mp3-44100-2ch-lame-v0.mp3 "LAME VBR -V0 on noise: large and varying frames, Xing TOC" "" \
    "$WAVIN"' && $LAME -V0 "$T/in.wav" "$OUT"'
sine 44100 1 1
mk mpeg/mp3-44100-1ch-lame-cbr64-crc.mp3 "mono MPEG-1 with CRC (-p): protection bit 0 in every frame; Info tag at mono offset 21 (LAME ignores the CRC there)" "" \
    "$WAVIN"' && $LAME -m m -b 64 -p "$T/in.wav" "$OUT"'
sine 48000 0.5 2
mk mpeg/mp3-48000-2ch-lame-cbr320.mp3 "LAME CBR 320 kbit/s at 48 kHz: every frame 960 bytes (no padding), Info tag" "" \
    "$WAVIN"' && $LAME -b 320 "$T/in.wav" "$OUT"'
# ---- LAME, MPEG-2 and MPEG-2.5 (lower sampling frequencies, 576 samples per frame)
sine 22050 1 2
mk mpeg/mp3-22050-2ch-lame-lsf.mp3 "MPEG-2 Layer III 22.05 kHz stereo 64 kbit/s, Info tag (side info 17 bytes)" "" \
    "$WAVIN"' && $LAME -b 64 --resample 22.05 "$T/in.wav" "$OUT"'
sine 24000 1 1
mk mpeg/mp3-24000-1ch-lame-lsf.mp3 "MPEG-2 Layer III 24 kHz mono 64 kbit/s, Info tag (side info 9 bytes)" "" \
    "$WAVIN"' && $LAME -m m -b 64 --resample 24 "$T/in.wav" "$OUT"'
sine 16000 1 2
mk mpeg/mp3-16000-2ch-lame-lsf-notag.mp3 "MPEG-2 Layer III 16 kHz 32 kbit/s: 144-byte frames, too small for an Info tag (LAME writes none)" "" \
    "$WAVIN"' && $LAME -b 32 --resample 16 "$T/in.wav" "$OUT"'
sine 8000 1 1
mk mpeg/mp3-8000-1ch-lame-mpeg25.mp3 "MPEG-2.5 Layer III 8 kHz mono 32 kbit/s (version bits 00), Info tag" "" \
    "$WAVIN"' && $LAME -m m -b 32 --resample 8 "$T/in.wav" "$OUT"'
sine 11025 1 2
mk mpeg/mp3-11025-2ch-lame-mpeg25.mp3 "MPEG-2.5 11.025 kHz stereo 32 kbit/s, Info tag" "" \
    "$WAVIN"' && $LAME -b 32 --resample 11.025 "$T/in.wav" "$OUT"'
sine 12000 1 1
mk mpeg/mp3-12000-1ch-lame-mpeg25-notag.mp3 "MPEG-2.5 12 kHz mono 24 kbit/s: 144-byte frames, no Info tag" "" \
    "$WAVIN"' && $LAME -m m -b 24 --resample 12 "$T/in.wav" "$OUT"'
# ---- LAME --nogap: two files encoded as one continuous stream (padding 0 in the first)
sine 44100 2 2
mk mpeg/mp3-44100-2ch-lame-nogap1.mp3 "first of two --nogap files (--nogaptags keeps the Info tag): LAME padding 0, fewer frames than the input needs" \
    "the second file of the same run is the next row" \
    "$WAVIN"' && $FF -i "$T/in.wav" $BX -t 1 "$T/a.wav" && $FF -ss 1 -i "$T/in.wav" $BX "$T/b.wav" && mkdir -p "$T/ng" && $LAME --nogap --nogaptags "$T/a.wav" "$T/b.wav" --nogapout "$T/ng" && cp "$T/ng/a.mp3" "$OUT"'
mk mpeg/mp3-44100-2ch-lame-nogap2.mp3 "second --nogap file: the first one's last samples lead it; LAME padding 1080" "output of the previous row's command" \
    'cp "$T/ng/b.mp3" "$OUT"'
# ---- ffmpeg (libmp3lame, mp2)
sine 44100 1 1
mk_ff mpeg/mp3-44100-1ch-ffmpeg-xing.mp3 "ffmpeg libmp3lame CBR mono: 20-byte empty ID3v2.4 tag, Info frame with LAME extension 'Lavf'" "" \
    -c:a libmp3lame -b:a 96k
sine 44100 1 2
mk_ff mpeg/mp3-44100-2ch-ffmpeg-vbr.mp3 "ffmpeg libmp3lame VBR (-q:a 4): Xing frame with TOC and 'Lavf' LAME extension after an empty ID3v2 tag" "" \
    -c:a libmp3lame -q:a 4
mk_ff mpeg/mp3-44100-2ch-ffmpeg-noxing.mp3 "ffmpeg libmp3lame with -write_xing 0 and no ID3v2: bare frames from byte 0" "" \
    -c:a libmp3lame -b:a 128k -write_xing 0 -id3v2_version 0
mk_ff mpeg/mp2-44100-2ch-ffmpeg.mp2 "ffmpeg mp2 (MPEG-1 Layer II) 192 kbit/s, padding at 44.1 kHz" "" -c:a mp2 -b:a 192k
sine 48000 1 1
mk_ff mpeg/mp2-48000-1ch-ffmpeg.mp2 "ffmpeg mp2 mono 64 kbit/s at 48 kHz" "" -c:a mp2 -b:a 64k
sine 24000 1 2
mk_ff mpeg/mp2-24000-2ch-ffmpeg.mp2 "MPEG-2 Layer II (lower sampling frequency, 1152 samples per frame) 64 kbit/s" "" -c:a mp2 -b:a 64k
# ---- TwoLAME (Layer II)
sine 48000 1 2
mk mpeg/mp2-48000-2ch-twolame.mp2 "TwoLAME Layer II 192 kbit/s" "" \
    "$WAVIN"' && $TWOLAME -b 192 "$T/in.wav" "$OUT"'
sine 32000 1 2
mk mpeg/mp2-32000-2ch-twolame-crc.mp2 "TwoLAME Layer II with CRC (-p) at 32 kHz" "" \
    "$WAVIN"' && $TWOLAME -p -b 128 "$T/in.wav" "$OUT"'
noise 44100 0.5 2 33
mk mpeg/mp2-44100-2ch-twolame-vbr.mp2 "TwoLAME Layer II VBR (-v): bit rate changes from frame to frame" "" \
    "$WAVIN"' && $TWOLAME -v "$T/in.wav" "$OUT"'
sine 44100 1 2
mk mpeg/mp2-44100-2ch-twolame-free.mp2 "TwoLAME free-format Layer II (--freeformat, 200 kbit/s, no padding: every frame 653 bytes)" \
    "ffprobe 5.1 fails on free format: oracle unusable; expectation by hand" \
    "$WAVIN"' && $TWOLAME --freeformat -b 200 "$T/in.wav" "$OUT"'
# ---- tags
mk mpeg/mp3-44100-2ch-id3v23-apic-id3v1.mp3 "ffmpeg libmp3lame with ID3v2.3 (TIT2/TPE1/TALB + 100-byte PNG APIC) in front and ID3v1 at the end" "" \
    '$FF -f lavfi -i "color=c=0x3366CC:s=16x16" -frames:v 1 $BX -c:v png "$T/cover.png" && $FF -filter_complex "$SIG[a]" -i "$T/cover.png" -map "[a]" -map 0:v $BX -c:a libmp3lame -b:a 128k -c:v copy -id3v2_version 3 -write_id3v1 1 -metadata title="MPEG Title" -metadata artist="MPEG Artist" -metadata album="MPEG Album" -metadata:s:v title=Cover -metadata:s:v comment="Cover (front)" "$OUT"'
mk mpeg/mp3-44100-2ch-id3v24-eyed3.mp3 "eyeD3: ID3v2.4 tag with APIC (front cover PNG) and text frames in front of a LAME file, ID3v1.1 at the end" "" \
    "$WAVIN"' && $LAME -b 128 "$T/in.wav" "$OUT" && $FF -f lavfi -i "color=c=0x3366CC:s=16x16" -frames:v 1 $BX -c:v png "$T/cover.png" && eyeD3 --quiet -t "Eye Title" -a "Eye Artist" -A "Eye Album" --add-image "$T/cover.png:FRONT_COVER" "$OUT" >/dev/null && eyeD3 --quiet -1 -t "Eye Title" -a "Eye Artist" "$OUT" >/dev/null'
mk mpeg/mp3-44100-2ch-apev2-id3v1.mp3 "APEv2 tag (mutagen: header + 2 items + footer) then ID3v1 (eyeD3) after the last frame" "ffprobe does not show APEv2" \
    "$WAVIN"' && $LAME -b 128 "$T/in.wav" "$OUT" && $MUTAGEN apev2 "$OUT" Title="APE Title" Artist="APE Artist" && eyeD3 --quiet -1 -t "V1 Title" "$OUT" >/dev/null'
# ---- derived: junk, concatenation, two leading tags
mk mpeg/mp3-44100-2ch-junk.mp3 "1000 bytes of text before the first frame, 300 zero bytes after frame 10, 3 bytes after frame 20 (no Xing frame, so ffprobe's packets stay comparable)" \
    "derived from LAME -t output by tools/derive_mpeg.py; ffprobe prepends junk between frames to the next frame's packet (pos at the junk; 718 and 421 bytes)" \
    "$WAVIN"' && $LAME -t -b 128 "$T/in.wav" "$T/notag.mp3" && $MDERIVE junk "$T/notag.mp3" "$OUT" --prefix-text "JUNK before the first frame. " --prefix-length 1000 --after-frame 10:300:zero --after-frame 20:3:text'
mk mpeg/mp3-44100-2ch-concat.mp3 "two LAME files concatenated (CBR 128 then VBR -V5): the second file's Xing frame is an ordinary packet in the middle; the first Info tag declares 40 frames of 81" \
    "derived by tools/derive_mpeg.py concat" \
    "$WAVIN"' && $LAME -b 128 "$T/in.wav" "$T/c1.mp3" && $LAME -V5 "$T/in.wav" "$T/c2.mp3" && $MDERIVE concat "$OUT" "$T/c1.mp3" "$T/c2.mp3"'
mk mpeg/mp3-44100-2ch-two-id3v2.mp3 "two consecutive ID3v2 tags (ffmpeg's v2.3 tag with APIC, then eyeD3's v2.4 tag) before a LAME stream" \
    "derived by tools/derive_mpeg.py prepend-tag from the two tagged fixtures above" \
    '$MDERIVE prepend-tag mpeg/mp3-44100-2ch-id3v24-eyed3.mp3 "$OUT" --tag-of mpeg/mp3-44100-2ch-id3v23-apic-id3v1.mp3'

# ======================================================================= ADTS
# ADTS AAC from ffmpeg's native AAC encoder (`-c:a aac -f adts`), plus files
# derived from it by tools/adts.py (CRC fields, several raw data blocks per frame,
# junk and ID3v2 tags between frames). This section manages adts/ itself.
#   $ADTS  python3 tools/adts.py
mkdir -p adts
find adts -maxdepth 1 -type f ! -name '*.ffprobe.json' -delete
ADTS="python3 tools/adts.py"
# sine_layout RATE DUR LAYOUT N: as sine(), N channels joined with ffmpeg channel layout LAYOUT
# (the layout decides the ADTS channel_configuration; 2.1, quad and 6.1 have none, so ffmpeg
# writes channel_configuration 0 and a program_config_element in every frame).
sine_layout() {
    local rate=$1 dur=$2 layout=$3 ch=$4 i g="" labels=""
    for ((i = 0; i < ch; i++)); do
        g+="sine=frequency=$((440 + 110 * i)):sample_rate=$rate:duration=$dur[c$i];"
        labels+="[c$i]"
    done
    SIG="${g}${labels}join=inputs=$ch:channel_layout=$layout"
    SIGDESC="sine 440 Hz + 110 Hz per channel, $rate Hz, $dur s, $ch ch ($layout)"
}
sine 8000 1 1
mk_ff adts/aac-8000-1ch.aac "AAC-LC mono, sampling_frequency_index 11 (8000 Hz)" "" -c:a aac -f adts
sine 7350 1 1
mk_ff adts/aac-7350-1ch.aac "sampling_frequency_index 12 (7350 Hz, the last valid index)" "" -c:a aac -f adts
sine 22050 1 2
mk_ff adts/aac-22050-2ch.aac "AAC-LC stereo, index 7 (22050 Hz)" "" -c:a aac -f adts
sine 44100 1 1
mk_ff adts/aac-44100-1ch.aac "AAC-LC mono 44.1 kHz (index 4, channel_configuration 1)" "" -c:a aac -f adts
sine 44100 1 2
mk_ff adts/aac-44100-2ch.aac "AAC-LC stereo 44.1 kHz, 7-byte headers, protection_absent 1; base of the derived files below" "" -c:a aac -f adts
sine 48000 1 2
mk_ff adts/aac-48000-2ch.aac "AAC-LC stereo 48 kHz (index 3)" "" -c:a aac -f adts
sine 96000 0.5 2
mk_ff adts/aac-96000-2ch.aac "AAC-LC stereo 96 kHz (index 0)" "" -c:a aac -f adts
for spec in "3.0 3 3" "4.0 4 4" "5.0 5 5" "5.1 6 6" "7.1 8 7"; do
    set -- $spec
    sine_layout 48000 0.5 "$1" "$2"
    mk_ff "adts/aac-48000-${2}ch.aac" "channel_configuration $3 (layout $1, $2 channels)" "" -c:a aac -f adts
done
for spec in "2.1 3" "quad 4" "6.1 7"; do
    set -- $spec
    sine_layout 48000 0.5 "$1" "$2"
    mk_ff "adts/aac-48000-${2}ch-pce.aac" "channel_configuration 0 with a program_config_element first in every raw data block (layout $1, $2 channels)" \
        "ffmpeg has no channel_configuration for $1" -c:a aac -f adts
done
sine 44100 0.5 2
mk_ff adts/aac-44100-2ch-mpeg2.aac "ID = 1 (MPEG-2 AAC) headers (-write_mpeg2 1)" "" -c:a aac -f adts -write_mpeg2 1
mk_ff adts/aac-44100-2ch-id3v2.aac "leading ID3v2.4 tag (TIT2, TPE1; 65 bytes with padding) before the first frame" \
    "ffmpeg -write_id3v2 1" -c:a aac -f adts -write_id3v2 1 -metadata title="'ADTS Title'" -metadata artist="'ADTS Artist'"
mk adts/aac-44100-2ch-two-id3v2.aac "two consecutive leading ID3v2 tags" \
    "derived: the second tag is the first one again, inserted by tools/adts.py" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -f adts -write_id3v2 1 -metadata title="ADTS Title" -metadata artist="ADTS Artist" "$T/two.aac" && $ADTS insert "$T/two.aac" "$OUT" --before-frame 0 --id3-of "$T/two.aac"'
mk_ff adts/aac-44100-2ch-apetag.aac "APEv2 tag (header + footer, one item) after the last frame" "ffmpeg -write_apetag 1" \
    -c:a aac -f adts -write_apetag 1 -metadata title="'APE Title'"
sine 44100 1 2
mk adts/aac-44100-2ch-crc.aac "protection_absent 0: 9-byte headers with crc_check" \
    "derived by tools/adts.py (no Debian encoder writes ADTS CRCs); crc_check = CRC-16 of the 7 header bytes, not the spec's value (that also covers channel-element bits only a decoder can find)" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -f adts "$T/crc.aac" && $ADTS crc "$T/crc.aac" "$OUT"'
mk adts/aac-44100-2ch-2blocks.aac "frames of 2 raw data blocks without CRC (boundaries not signalled)" \
    "derived: frames merged pairwise by tools/adts.py; no Debian encoder writes multi-block ADTS" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -f adts "$T/mb.aac" && $ADTS multiblock "$T/mb.aac" "$OUT"'
mk adts/aac-44100-2ch-2blocks-crc.aac "frames of 2 raw data blocks with CRC: raw_data_block_position and a header crc_check (valid), a crc_check after each block" \
    "derived: frames merged pairwise by tools/adts.py; the per-block CRCs are CRC-16 of the block bytes, not the spec's value" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -f adts "$T/mbc.aac" && $ADTS multiblock "$T/mbc.aac" "$OUT" --crc'
mk adts/aac-44100-2ch-junk.aac "junk before the first frame (100 bytes with a sampling-index-15 header and a header without successor) and 37 bytes of text between frames 10 and 11" \
    "derived: bytes inserted by tools/adts.py" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -f adts "$T/j.aac" && $ADTS insert "$T/j.aac" "$T/j1.aac" --before-frame 10 --hex 4a756e6b206265747765656e206672616d657320313020616e64203131202833372042292e && $ADTS insert "$T/j1.aac" "$OUT" --before-frame 0 --hex 4a554e4bfff17c40101ffcfff15080081ffc'"$(printf '00%.0s' $(seq 82))"
mk adts/aac-44100-2ch-id3-between.aac "an ID3v2.4 tag (TIT2/TPE1, 65 bytes) between frames 20 and 21, as HLS timed metadata" \
    "derived: the tag ffmpeg -write_id3v2 1 writes, inserted by tools/adts.py" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -f adts -write_id3v2 1 -metadata title="Timed Title" -metadata artist="Timed Artist" "$T/t.aac" && $FF -filter_complex "$SIG" $BX -c:a aac -f adts "$T/b.aac" && $ADTS insert "$T/b.aac" "$OUT" --before-frame 20 --id3-of "$T/t.aac"'

# ================================================================== malformed
# One real encoder output that is itself malformed: ffmpeg 5.1 muxes FLAC into CAF
# without kuki and without pakt (framesPerPacket 0, VBR), which ffprobe cannot read.
sine 44100 0.1 1
mk malformed/caf-ffmpeg-flac-no-pakt.caf "real ffmpeg 5.1 output: FLAC in CAF with no kuki, no pakt, framesPerPacket 0 (unreadable VBR stream)" \
    "ffprobe fails (Invalid data); not derived, ffmpeg writes it like this" \
    '$FF -filter_complex "$SIG" $BX -c:a flac -f caf "$OUT"'
SIGDESC="(derived from the fixtures above)"
python3 tools/make_malformed.py --fixtures . --out malformed \
    --extra "caf-ffmpeg-flac-no-pakt.caf|ffmpeg 5.1 direct output (see README)|FLAC in CAF without kuki and without pakt; desc framesPerPacket 0 and bytesPerPacket 0|whole file: desc, chan, data; no kuki/pakt"
printf '%s\t%s\t%s\t%s\t%s\n' "malformed/*" "python3 tools/make_malformed.py --fixtures . --out malformed" "-" \
    "truncations at every structural point, absurd sizes, zero sizes, bad format fields, unknown magic: one line per file in malformed/manifest.json" \
    "derived from the fixtures above (derivedFrom in the manifest); no ffprobe oracle" >> "$PROV"

# ====================================================== tags (metadata readers)
# Tag-bearing MP3s written by real taggers, for the ID3v2/ID3v1/APEv2 readers in
# Sources/AudioStreamParsing/Metadata (TagFixtureTests.swift extracts the tags and
# compares them with the values written here). Each starts from the same short
# LAME file. Taggers: id3v2 0.1.12 (id3lib 3.8.3), eyeD3 0.9.7, mutagen 1.46.0
# (Debian python3-mutagen, run by /usr/bin/python3), MP3::Tag 1.16 (Debian
# libmp3-tag-perl, the one that writes ID3v2.3 unsynchronisation).
# Extra variables in the recorded commands:
#   $TAGIN   $FF ... -c:a pcm_s16le "$T/tag-in.wav" && lame --quiet -b 128 "$T/tag-in.wav" "$OUT"
#   $COVER   $FF -f lavfi -i "color=c=0x3366CC:s=16x16" -frames:v 1 $BX -c:v png "$T/cover.png" (100-byte PNG)
#   $TAGPY   /usr/bin/python3 tools/metadata_tags.py
#   $TAGPL   perl tools/metadata_unsync.pl
for tool in lame id3v2 eyeD3 perl; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing $tool" >&2; exit 1; }
done
/usr/bin/python3 -c 'import mutagen' 2>/dev/null || { echo "generate.sh: missing python3-mutagen" >&2; exit 1; }
perl -MMP3::Tag -e 1 2>/dev/null || { echo "generate.sh: missing libmp3-tag-perl" >&2; exit 1; }
mkdir -p tags
find tags -maxdepth 1 -type f ! -name '*.ffprobe.json' -delete
DIRS+=(tags)
TAGIN='$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/tag-in.wav" && lame --quiet -b 128 "$T/tag-in.wav" "$OUT"'
COVER='$FF -f lavfi -i "color=c=0x3366CC:s=16x16" -frames:v 1 $BX -c:v png "$T/cover.png"'
TAGPY="/usr/bin/python3 tools/metadata_tags.py"
TAGPL="perl tools/metadata_unsync.pl"
sine 44100 0.5 2
mk tags/id3v23-id3lib-id3v1.mp3 "id3v2 (id3lib): ID3v2.3 (TIT2 TPE1 TALB TYER TCON '(17)' TRCK COMM with description, TCOM, TBPM, padding) and ID3v1.1 (track 3, genre 17)" "ffprobe shows the ID3v2 text (genre Rock; comment under its description)" \
    "$TAGIN"' && id3v2 -t "Id3lib Title" -a "Id3lib Artist" -A "Id3lib Album" -y 2003 -g 17 -T 3/12 -c "Desc":"Id3lib comment":"eng" --TCOM "Id3lib Composer" --TBPM 128 "$OUT"'
mk tags/id3v24-eyed3-utf16be-apic.mp3 "eyeD3: ID3v2.4, every text frame UTF-16BE (encoding 2), APIC front cover PNG, COMM, USLT, TXXX, TCOP, TBPM, TDRC, TCON" "ffprobe shows the text" \
    "$TAGIN && $COVER"' && printf "Eye lyrics line 1\nline 2\n" > "$T/lyrics.txt" && eyeD3 --quiet --to-v2.4 --encoding utf16-be -t "Eye Tïtle" -a "Eye Ärtist" -A "Eye Album" -G Jazz -n 5 -N 9 --recording-date 2021-07-04 -c "Eye comment" --user-text-frame "MOOD:happy" --text-frame "TCOP:2021 Eye Records" --text-frame "TBPM:96" --add-lyrics "$T/lyrics.txt" --add-image "$T/cover.png:FRONT_COVER:Front" "$OUT" >/dev/null'
mk tags/id3v24-mutagen-chapters.mp3 "mutagen: ID3v2.4 with UTF-16/UTF-8/UTF-16BE/Latin-1 text, two TPE1 values, TCON '13', TXXX, COMM, USLT, PRIV, APIC, CTOC + 3 CHAP with TIT2 sub-frames, 64 bytes of padding" "ffprobe shows the first TPE1 value only and no chapters in format_tags" \
    "$TAGIN && $COVER"' && $TAGPY id3 "$OUT" 4 "$T/cover.png"'
mk tags/id3v23-mutagen-chapters.mp3 "mutagen: the same tag saved as ID3v2.3 (UTF-8 text becomes UTF-16, TDRC becomes TYER + TDAT, the two TPE1 values joined with '/', TCON '(13)')" "" \
    "$TAGIN && $COVER"' && $TAGPY id3 "$OUT" 3 "$T/cover.png"'
mk tags/id3v23-mp3tag-unsync.mp3 "MP3::Tag: ID3v2.3 with tag-level unsynchronisation (flag 0x80; the Latin-1 title holds FF E0, the PNG cover FF bytes), TIT2 TPE1 TALB TYER APIC" \
    "ffprobe 5.1 misreads this tag (title cut to 'Unsync ÿà Tïtl', TPE1 lost); mutagen and id3lib read it as written" \
    "$TAGIN && $COVER"' && $TAGPL "$OUT" "$T/cover.png"'
mk tags/id3v1-id3lib.mp3 "id3v2 -1 (id3lib): ID3v1.1 only (track 7, genre 13), no ID3v2" "ffprobe shows the ID3v1 fields" \
    "$TAGIN"' && id3v2 -1 -t "V1 Title" -a "V1 Artist" -A "V1 Album" -y 1999 -g 13 -T 7 -c "V1 comment" "$OUT"'
mk tags/apev2-mutagen-id3v1.mp3 "APEv2 (mutagen: header + 8 items incl. binary 'Cover Art (Front)' + footer), then an ID3v1.1 tag appended by id3lib" "ffprobe does not show the APE items" \
    "$TAGIN && $COVER"' && $TAGPY ape "$OUT" "$T/cover.png" && id3v2 -1 -t "V1 Title" -a "V1 Artist" -T 1 -g 8 "$OUT"'

# ======================================================================= FLAC
# Native FLAC (RFC 9639) for Formats/FLAC (docs/formats/flac.md). Encoder: the reference
# flac 1.4.2 CLI (Debian 12 `flac`), from a WAVE written by ffmpeg; one ffmpeg-encoded file.
# Extra variables in the recorded commands:
#   $FLACENC  flac --silent --force
#   $FLACIN   $FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/in.wav" (pcm_u8 / pcm_s24le where named)
#   $FLACVAR  python3 tools/flac_variable.py (joins fixed-blocksize pieces into a variable-blocksize stream)
#   $COVER    as in the tags section (16x16 PNG, 100 bytes)
command -v flac >/dev/null || { echo "generate.sh: missing flac" >&2; exit 1; }
command -v metaflac >/dev/null || { echo "generate.sh: missing metaflac" >&2; exit 1; }
mkdir -p flac
find flac -maxdepth 1 -type f ! -name '*.ffprobe.json' -delete
DIRS+=(flac)
FLACENC="flac --silent --force"
FLACIN='$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/in.wav"'
FLACVAR="python3 tools/flac_variable.py"
sine 44100 0.5 2
mk flac/flac-44100-2ch-s16.flac "flac -5 defaults: STREAMINFO, SEEKTABLE (1 point), VORBIS_COMMENT (vendor only), 8 KiB PADDING; fixed block size 4096 (code 12), short last frame" "" \
    "$FLACIN"' && $FLACENC -o "$OUT" "$T/in.wav"'
sine 8000 0.3 1
mk flac/flac-8000-1ch-u8-b192-l8.flac "8-bit mono at 8 kHz (rate code 4), -8, --blocksize 192 (block size code 1), no padding" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_u8 "$T/in.wav" && $FLACENC -8 --blocksize 192 --no-padding -o "$OUT" "$T/in.wav"'
noise 96000 0.04 2 11
mk flac/flac-96000-2ch-s24-l0.flac "24-bit stereo noise at 96 kHz (rate code 11, size code 6), -0 (fixed predictors, independent channels), no padding" "" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s24le "$T/in.wav" && $FLACENC -0 --no-padding -o "$OUT" "$T/in.wav"'
sine 48000 0.2 6
mk flac/flac-48000-6ch-s16-b1152.flac "6 channels (5.1, channel assignment 5), --blocksize 1152 (code 3), no padding" "" \
    "$FLACIN"' && $FLACENC --blocksize 1152 --no-padding -o "$OUT" "$T/in.wav"'
sine 11025 0.5 1
mk flac/flac-11025-1ch-s16-b1000-seektable.flac "rate 11025 coded in Hz (rate code 13, 16 bits), --blocksize 1000 (code 7, 16-bit uncommon size), SEEKTABLE every 0.1 s plus a placeholder point (-S 0.1s -S X)" "" \
    "$FLACIN"' && $FLACENC --blocksize 1000 -S 0.1s -S X --no-padding -o "$OUT" "$T/in.wav"'
sine 12000 0.2 1
mk flac/flac-12000-1ch-s16-b200.flac "rate 12000 coded in kHz (rate code 12, 8 bits), --blocksize 200 (code 6, 8-bit uncommon size)" "" \
    "$FLACIN"' && $FLACENC --blocksize 200 --no-padding -o "$OUT" "$T/in.wav"'
sine 37800 0.2 2
mk flac/flac-37800-2ch-s16.flac "rate 37800 coded in tens of Hz (rate code 14), stereo decorrelation" "" \
    "$FLACIN"' && $FLACENC --no-padding -o "$OUT" "$T/in.wav"'
sine 44100 1.2 2
mk flac/flac-44100-2ch-s16-cuesheet.flac "CUESHEET (CD, 3 tracks: track 2 with INDEX 00 at 0.4 s and INDEX 01 at 0.5333 s, track 3 at 1.0 s, lead-out at 1.2 s) and the SEEKTABLE flac derives from it" "chapters by hand: Track 01 0-0.5333 s, Track 02 0.5333-1.0 s, Track 03 1.0-1.2 s" \
    "$FLACIN"' && printf "FILE \"in.wav\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 00 00:00:30\n    INDEX 01 00:00:40\n  TRACK 03 AUDIO\n    INDEX 01 00:01:00\n" > "$T/c.cue" && $FLACENC --cuesheet="$T/c.cue" --no-padding -o "$OUT" "$T/in.wav"'
sine 44100 0.3 2
mk flac/flac-44100-2ch-s16-tags-picture.flac "VORBIS_COMMENT with TITLE (UTF-8 ï; --no-utf8-convert keeps the bytes under LC_ALL=C) ARTIST ALBUM GENRE TRACKNUMBER DATE COMMENT (-T), PICTURE front cover PNG (--picture), padding" "" \
    "$FLACIN && $COVER"' && $FLACENC --no-utf8-convert -T "TITLE=Flac Tïtle" -T "ARTIST=Flac Artist" -T "ALBUM=Flac Album" -T "GENRE=Jazz" -T "TRACKNUMBER=4" -T "DATE=2022" -T "COMMENT=Flac comment" --picture="3||Front|16x16x24|$T/cover.png" -o "$OUT" "$T/in.wav"'
mk flac/flac-44100-2ch-s16-id3v2.flac "an ID3v2.3 tag (TIT2 TPE1, id3lib) in front of the fLaC marker" "ffprobe skips the tag and shows its text" \
    "$FLACIN"' && $FLACENC --no-padding -o "$OUT" "$T/in.wav" && id3v2 -2 -t "ID3 Title" -a "ID3 Artist" "$OUT"'
sine 12000 0.2 1
mk flac/flac-12000-1ch-s16-id3v1.flac "an ID3v1.1 tag (id3lib: title, artist, track 2) appended after the last frame, as some taggers do" \
    "ffprobe 5.1 counts the 128 tag bytes into the last packet and shows no tags: expected by hand (HandDerived.swift)" \
    "$FLACIN"' && $FLACENC --blocksize 200 --no-padding -o "$OUT" "$T/in.wav" && id3v2 -1 -t "V1 Title" -a "V1 Artist" -T 2 "$OUT"'
sine 44100 0.6 2
mk flac/flac-44100-2ch-s16-variable.flac "variable block size (blocking strategy 1, sample numbers): frames of 1152 (4 frames, the last 544), 4096 (2, the last 2904) and 576 samples, MD5 unset" \
    "derived: three pieces of one signal encoded by flac with --blocksize 1152/4096/576, frames joined by tools/flac_variable.py (headers rewritten, subframes untouched; flac -t decodes it)" \
    "$FLACIN"' && sox "$T/in.wav" "$T/p1.wav" trim 0 4000s && sox "$T/in.wav" "$T/p2.wav" trim 4000s 7000s && sox "$T/in.wav" "$T/p3.wav" trim 11000s && $FLACENC --no-padding --blocksize 1152 -o "$T/p1.flac" "$T/p1.wav" && $FLACENC --no-padding --blocksize 4096 -o "$T/p2.flac" "$T/p2.wav" && $FLACENC --no-padding --blocksize 576 -o "$T/p3.flac" "$T/p3.wav" && $FLACVAR "$OUT" "$T/p1.flac" "$T/p2.flac" "$T/p3.flac" && flac --silent --test "$OUT" 2>/dev/null'
sine 48000 0.1 1
mk flac/flac-48000-1ch-s32.flac "32-bit mono (sample size code 7, flac >= 1.4), two frames (4096 + 704 samples)" \
    "ffprobe 5.1 finds the stream but reports 0 packets (no 32-bit FLAC decoding in ffmpeg 5.1): expected by hand from flac --analyze (HandDerived.swift)" \
    '$FF -filter_complex "$SIG" $BX -c:a pcm_s32le "$T/in.wav" && $FLACENC --no-padding -o "$OUT" "$T/in.wav"'
sine 48000 0.3 2
mk_ff flac/flac-48000-2ch-s16-ffmpeg.flac "ffmpeg's FLAC encoder and muxer (lavc: block size 4608 at 48 kHz (code 5); lavf: STREAMINFO rewritten at the end, no SEEKTABLE)" "" -c:a flac
# Malformed FLAC: derived from one 5-frame file by tools/make_malformed_flac.py (added to
# malformed/manifest.json; expectations in malformed/expected.json, rules in docs/testing.md).
sine 8000 0.12 1
SIGDESC="(derived from a 5-frame flac 1.4.2 file)"
eval '$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/mf.wav" && $FLACENC -8 --blocksize 192 --no-padding -o "$T/mf.flac" "$T/mf.wav"'
python3 tools/make_malformed_flac.py "$T/mf.flac" malformed
printf '%s\t%s\t%s\t%s\t%s\n' "malformed/flac-*" "python3 tools/make_malformed_flac.py \$T/mf.flac malformed" "sine 440 Hz, 8000 Hz, 0.12 s, 1 ch" \
    "FLAC header/footer CRC damage, truncation, short STREAMINFO, huge block length, false syncs: one line per file in malformed/manifest.json" \
    "derived from a flac -8 --blocksize 192 file; no ffprobe oracle" >> "$PROV"
# ======================================================================== MP4
# ISO base media (MP4/M4A/M4B/3GP) and QuickTime (.mov) files written by ffmpeg's
# mov/mp4/ipod/3gp muxers; iTunes tags and cover art added by mutagen. This section
# manages mp4/ itself. Extra variables in the recorded commands:
#   $MP4TAG  /usr/bin/python3 tools/tag_mp4.py (Debian's python3-mutagen)
#   $COVER   as in the tags section: a 100-byte 16x16 PNG in $T/cover.png
mkdir -p mp4
find mp4 -maxdepth 1 -type f ! -name '*.ffprobe.json' -delete
DIRS+=(mp4)
MP4TAG="/usr/bin/python3 tools/tag_mp4.py"
COVER='$FF -f lavfi -i "color=c=0x3366CC:s=16x16" -frames:v 1 $BX -c:v png "$T/cover.png"'
# ---- AAC
sine 44100 1 2
mk_ff mp4/aac-44100-2ch-faststart.m4a "AAC-LC in M4A with moov before mdat (+faststart): mp4a + esds (ES_Descriptor, ASC 0x1210), edts/elst media_time 1024 (priming), stts/stsc/stsz/stco" "" \
    -c:a aac -movflags +faststart
mk_ff mp4/aac-44100-2ch-moov-end.m4a "the same AAC-LC M4A with moov after mdat (ffmpeg's default): the streaming case Apple reports as optm" "" -c:a aac
mk mp4/aac-44100-2ch-itunes.m4a "iTunes tags by mutagen: ©nam ©ART aART ©alb ©day trkn disk ©gen ©wrt ©cmt cpil tmpo ©too cprt, covr (PNG), freeform ----:com.apple.iTunes:iTunSMPB (priming 1024, remainder 956, 44100 valid frames, agreeing with elst) and ----:org.example.fixtures:Mood" \
    "mutagen rewrites udta/meta/ilst and updates stco; ffprobe shows most tags (not covr data)" \
    '$FF -filter_complex "$SIG" $BX -c:a aac -movflags +faststart "$T/it.m4a" && '"$COVER"' && cp "$T/it.m4a" "$OUT" && $MP4TAG itunes "$OUT" "$T/cover.png" " 00000000 00000400 000003BC 000000000000AC44 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"'
sine 48000 0.5 6
mk_ff mp4/aac-48000-6ch.m4a "5.1 AAC-LC (ASC channelConfiguration 6)" "" -c:a aac -movflags +faststart
sine 16000 1 1
mk_ff mp4/aac-16000-1ch.3gp "3GP (ftyp major brand 3gp4) with AAC-LC mono 16 kHz" "" -c:a aac -b:a 24k -f 3gp
sine 44100 1 2
mk_ff mp4/aac-44100-2ch.mov "QuickTime .mov with AAC: sound description version 1 with a wave box (frma mp4a, mp4a, esds, terminator) and chan" "" -c:a aac
mk_ff mp4/aac-44100-2ch-frag.mp4 "fragmented MP4 (-movflags frag_keyframe+empty_moov): empty stbl, mvex/trex, one moof (tfhd base-data-offset, tfdt, trun) + mdat, mfra" "" \
    -c:a aac -movflags frag_keyframe+empty_moov
mk_ff mp4/aac-44100-2ch-frag-default-base-moof.mp4 "fragmented MP4 with +default_base_moof and -frag_duration 250000: several moof/mdat pairs, tfhd flags 0x020038 (default-base-is-moof, no base-data-offset)" "" \
    -c:a aac -movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 250000
mk mp4/aac-44100-2ch-video.mp4 "an audio track and a video track (32x32 testsrc, H.264, 10 frames) interleaved in one mdat; the audio track is the second trak" "" \
    '$FF -f lavfi -i "testsrc=size=32x32:rate=10:duration=1" -filter_complex "$SIG[a]" $BX -map 0:v -map "[a]" -c:v libx264 -preset ultrafast -x264-params bframes=0 -c:a aac -b:a 64k "$OUT"'
# ---- chapters (ffmetadata chapters → chpl + QuickTime chapter text track)
sine 22050 2 1
mk mp4/aac-22050-1ch-chapters.m4b "audiobook (.m4b, ipod muxer): three chapters as Nero chpl (version 1) in moov/udta and as a QuickTime chapter text track (tref/chap, 'text' samples: 2-byte length, title, encd atom)" "ffprobe -show_chapters lists them; no \$BX here: its -map_metadata -1 also drops the chapter titles and the chapter track" \
    'printf ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=700\ntitle=Chapter One\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=700\nEND=1400\ntitle=Chapter Two\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1400\nEND=2000\ntitle=Chapter Three\n" > "$T/chapters.txt" && $FF -filter_complex "$SIG" -i "$T/chapters.txt" -fflags +bitexact -flags +bitexact -map_metadata 0 -map_chapters 0 -c:a aac -metadata title="Book Title" -metadata artist="Book Author" "$OUT"'
# ---- other codecs
sine 44100 1 2
mk_ff mp4/alac-44100-2ch.m4a "ALAC in M4A: alac sample entry holding a 36-byte 'alac' full box (ALACSpecificConfig), 4096 frames per packet" "" -c:a alac
mk_ff mp4/mp3-44100-2ch.mp4 "MP3 in MP4: mp4a sample entry with esds objectTypeIndication 0x6B (MPEG-1 audio), no DecoderSpecificInfo" "" -c:a libmp3lame -b:a 64k
sine 48000 1 2
mk_ff mp4/opus-48000-2ch.mp4 "Opus in MP4: Opus sample entry + dOps (version 0, pre-skip 312, input rate 48000, mapping family 0)" "" -c:a libopus -b:a 32k
sine 44100 1 2
mk_ff mp4/flac-44100-2ch.mp4 "FLAC in MP4: fLaC sample entry + dfLa (STREAMINFO, last-metadata-block flag set)" "ffmpeg 5.1 needs -strict -2" -c:a flac -strict -2
sine 48000 0.5 2
mk_ff mp4/ac3-48000-2ch.mp4 "AC-3 in MP4: ac-3 sample entry + dac3 (ETSI TS 102 366 F.4)" "" -c:a ac3 -b:a 96k
mk_ff mp4/eac3-48000-2ch.mp4 "E-AC-3 in MP4: ec-3 sample entry + dec3 (ETSI TS 102 366 F.6)" "" -c:a eac3 -b:a 96k
# ---- PCM in QuickTime
sine 8000 0.5 2
mk_ff mp4/pcm_s16be-8000-2ch.mov "QuickTime sound description version 0, 'twos' (big-endian 16-bit)" "" -c:a pcm_s16be
mk_ff mp4/pcm_s16le-8000-2ch.mov "version 0 'sowt' (little-endian 16-bit)" "" -c:a pcm_s16le
noise 8000 0.5 2 41
mk_ff mp4/pcm_s24le-8000-2ch.mov "version 1 'in24' with a wave box (frma in24, enda 1 = little-endian)" "" -c:a pcm_s24le
noise 96000 0.05 1 43
mk_ff mp4/pcm_f32le-96000-1ch.mov "version 2 'lpcm' (rate above 65535: 64-bit float rate, formatSpecificFlags float|packed, no big-endian flag)" "" -c:a pcm_f32le
sine 8000 0.5 1
mk_ff mp4/pcm_mulaw-8000-1ch.mov "'ulaw' sound description version 0" "" -c:a pcm_mulaw

# ========================================================== malformed mp4
# The malformed MP4 inputs (mp4-*) derive from the MP4 fixtures above, which do not exist yet when the
# malformed section runs: make_malformed.py skips them there and makes the whole corpus again here (the
# other files come out byte-identical; manifest.json gains the mp4-* rows).
python3 tools/make_malformed.py --fixtures . --out malformed \
    --extra "caf-ffmpeg-flac-no-pakt.caf|ffmpeg 5.1 direct output (see README)|FLAC in CAF without kuki and without pakt; desc framesPerPacket 0 and bytesPerPacket 0|whole file: desc, chan, data; no kuki/pakt"

# ======================================================================== ogg
# Ogg (RFC 3533) with Vorbis, Opus and FLAC, for Sources/AudioStreamParsing/Formats/Ogg
# (docs/formats/ogg.md). Every encoder gets a fixed serial number (oggenc -s,
# opusenc --serial; ffmpeg +bitexact numbers its streams), so the files are
# deterministic. The libogg oracle (Tests/OggReferenceTests) checks every page
# and packet; ffprobe is the oracle for packet sizes and durations, except for the
# chained files (ffprobe cannot read chains: hand-derived expectations).
# Extra variables in the recorded commands:
#   $WAV     $FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/in.wav" (the signal as WAVE)
#   $OGGENC  oggenc --quiet -s SERIAL (vorbis-tools)
#   $OPUSENC opusenc --quiet --serial SERIAL (opus-tools)
for tool in oggenc opusenc vorbiscomment; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing $tool" >&2; exit 1; }
done
mkdir -p ogg malformed/ogg
find ogg malformed/ogg -maxdepth 1 -type f ! -name '*.ffprobe.json' -delete
DIRS+=(ogg malformed/ogg)
WAV='$FF -filter_complex "$SIG" $BX -c:a pcm_s16le "$T/in.wav"'
OGGENC="oggenc --quiet"
OPUSENC="opusenc --quiet"
# ---- Vorbis (oggenc)
sine 44100 1 2
mk ogg/vorbis-44100-2ch-oggenc.ogg "Vorbis stereo 44.1 kHz from libvorbis (oggenc -q 2): 3 header packets on their own pages" "" \
    "$WAV"' && $OGGENC -s 1001 -q 2 -o "$OUT" "$T/in.wav"'
sine 8000 1 1
mk ogg/vorbis-8000-1ch-oggenc.ogg "Vorbis mono 8 kHz" "" "$WAV"' && $OGGENC -s 1002 -q 0 -o "$OUT" "$T/in.wav"'
sine 22050 1 1
mk ogg/vorbis-22050-1ch-oggenc.ogg "Vorbis mono 22.05 kHz (second link of the chained file)" "" "$WAV"' && $OGGENC -s 1003 -q 0 -o "$OUT" "$T/in.wav"'
sine 48000 1 6
mk ogg/vorbis-48000-6ch-oggenc.ogg "Vorbis 5.1 (channel mapping 0, 6 channels in Vorbis order)" "" "$WAV"' && $OGGENC -s 1004 -q 0 -o "$OUT" "$T/in.wav"'
sine 44100 1 2
mk ogg/vorbis-44100-2ch-chapters.ogg "Vorbis comments: TITLE ARTIST ALBUM GENRE DATE TRACKNUMBER COMMENT and CHAPTER001..003 (+NAME)" "ffprobe shows the comments (not the chapters)" \
    "$WAV"' && $OGGENC -s 1005 -q 0 -t "Ogg Title" -a "Ogg Artist" -l "Ogg Album" -G Jazz -d 2024 -N 3 -c "COMMENT=Ogg comment" -c CHAPTER001=00:00:00.000 -c CHAPTER001NAME=Intro -c CHAPTER002=00:00:00.400 -c CHAPTER002NAME=Middle -c CHAPTER003=00:00:00.800 -c "CHAPTER003NAME=Last part" -o "$OUT" "$T/in.wav"'
sine 22050 0.5 1
mk ogg/vorbis-22050-1ch-big-comment.ogg "a 70000-byte DESCRIPTION comment: the comment header packet spans two pages" "vorbiscomment -a -c (comment read from a file)" \
    "$WAV"' && $OGGENC -s 1006 -q 0 -t "Big Comment" -o "$T/b.ogg" "$T/in.wav" && python3 -c "print(\"DESCRIPTION=\" + \"0123456789abcdef\" * 4375)" > "$T/c.txt" && vorbiscomment -a -c "$T/c.txt" "$T/b.ogg" "$OUT"'
# ---- Opus (opusenc)
sine 48000 1 2
mk ogg/opus-48000-2ch-64k-opusenc.opus "Opus stereo 64 kbit/s VBR, OpusHead + OpusTags (512 bytes padding), pre-skip 312, end trimmed by the last granule" "" \
    "$WAV"' && $OPUSENC --serial 2001 --bitrate 64 --title "Opus Title" --artist "Opus Artist" "$T/in.wav" "$OUT"'
sine 16000 1 1
mk ogg/opus-16000-1ch-16k-opusenc.opus "Opus mono 16 kbit/s from a 16 kHz input (OpusHead input rate 16000; output 48 kHz)" "" \
    "$WAV"' && $OPUSENC --serial 2002 --bitrate 16 "$T/in.wav" "$OUT"'
sine 48000 1 2
mk ogg/opus-48000-2ch-cbr-framesize-opusenc.opus "Opus hard CBR 96 kbit/s, 10 ms frames (TOC configs with 480-sample frames)" "" \
    "$WAV"' && $OPUSENC --serial 2003 --hard-cbr --bitrate 96 --framesize 10 "$T/in.wav" "$OUT"'
sine 48000 0.5 2
mk ogg/opus-48000-2ch-picture-opusenc.opus "OpusTags with a 58 KB PNG as METADATA_BLOCK_PICTURE (base64): the tags packet spans two pages" "cover: 140x140 RGB noise PNG (ffmpeg noise filter, seed 7)" \
    "$WAV"' && $FF -f lavfi -i "color=c=gray:s=140x140,format=rgb24,noise=alls=100:allf=u:all_seed=7" -frames:v 1 $BX -c:v png "$T/cover.png" && $OPUSENC --serial 2004 --bitrate 48 --title "Picture" --picture "3||Front||$T/cover.png" "$T/in.wav" "$OUT"'
# ---- ffmpeg's Ogg muxer
sine 48000 1 2
mk_ff ogg/opus-48000-2ch-ffmpeg.opus "Opus from ffmpeg (libopus), ffmpeg's page layout" "" -c:a libopus -b:a 64k
mk_ff ogg/vorbis-44100-2ch-ffmpeg.ogg "Vorbis from ffmpeg (libvorbis)" "" -c:a libvorbis -q:a 2 -ar 44100
sine 44100 1 2
mk_ff ogg/flac-44100-2ch-ffmpeg.oga "FLAC in Ogg (0x7F FLAC mapping header 1.0 with STREAMINFO, VORBIS_COMMENT header packet)" "" -c:a flac -f ogg
noise 96000 0.3 2 11
mk_ff ogg/flac-96000-2ch-s24-spans-pages.oga "24-bit FLAC noise in Ogg: packets larger than a page's 255 segments continue on the next page" "" -c:a flac -sample_fmt s32 -bits_per_raw_sample 24 -f ogg
# ---- chained and multiplexed
SIGDESC="(two fixtures above, concatenated)"
mk ogg/vorbis-chained-44100-2ch-22050-1ch.ogg "chained Ogg: the 44.1 kHz stereo file followed by the 22.05 kHz mono file (EOS, then a new BOS with another serial)" \
    "oracle unusable: ffprobe keeps the first link's format (hand-derived expectation)" \
    'cat ogg/vorbis-44100-2ch-oggenc.ogg ogg/vorbis-22050-1ch-oggenc.ogg > "$OUT"'
mk ogg/opus-chained-2ch-1ch.opus "chained Ogg Opus: stereo 64k then mono 16k (new OpusHead and OpusTags mid-stream)" \
    "oracle unusable: ffprobe keeps the first link's format (hand-derived expectation)" \
    'cat ogg/opus-48000-2ch-64k-opusenc.opus ogg/opus-16000-1ch-16k-opusenc.opus > "$OUT"'
sine 48000 1 1
mk ogg/multiplexed-opus-vorbis.ogg "two logical streams interleaved page by page: Opus mono (serial 0) and Vorbis mono (serial 1), remuxed by ffmpeg -c copy; the first is followed" "" \
    '$FF -filter_complex "$SIG" $BX -c:a libopus -b:a 32k "$T/m1.opus" && $FF -filter_complex "$SIG" $BX -c:a libvorbis -q:a 0 "$T/m2.ogg" && $FF -i "$T/m1.opus" -i "$T/m2.ogg" -map 0:a -map 1:a -c copy $BX -f ogg "$OUT"'
# ---- malformed Ogg (python3 tools/ogg_malformed.py; documented in malformed/expected.json)
SIGDESC="(derived from ogg/vorbis-48000-6ch-oggenc.ogg and ogg/opus-16000-1ch-16k-opusenc.opus)"
python3 tools/ogg_malformed.py ogg malformed/ogg
printf '%s\t%s\t%s\t%s\t%s\n' "malformed/ogg/*" "python3 tools/ogg_malformed.py ogg malformed/ogg" "-" \
    "bad CRC, bad version, truncated page, huge lacing, 255 lacing values of 255, missing BOS, junk between pages" \
    "derived; results documented in malformed/expected.json; no ffprobe oracle" >> "$PROV"

# ============================================================ ogg seeking
# Longer Ogg streams with many small pages (ffmpeg's ogg muxer, -page_duration in
# microseconds): estimated seeks, their refinement by granule positions and exact
# seeks to pages already parsed (Tests/AudioStreamParsingTests/Formats/OggSeekTests.swift).
sine 44100 4 2
mk_ff ogg/vorbis-44100-2ch-paged.ogg "Vorbis 4 s in ~40 pages of 100 ms (ffmpeg -page_duration 100000): seeking" "" -c:a libvorbis -q:a 0 -page_duration 100000
sine 48000 4 2
mk_ff ogg/opus-48000-2ch-paged.opus "Opus 4 s in ~40 pages of 100 ms (ffmpeg -page_duration 100000): seeking" "" -c:a libopus -b:a 32k -page_duration 100000
sine 22050 4 1
mk_ff ogg/flac-22050-1ch-paged.oga "FLAC in Ogg 4 s, one or two frames per page (ffmpeg -page_duration 100000): seeking" "" -c:a flac -page_duration 100000 -f ogg

# ============================================================ provenance table
{
    ffmpeg -version | head -n 1
    ffprobe -version | head -n 1
    sox --version | sed 's/^sox: *//'
    lame --version | head -n 1 || true
    twolame --help 2>&1 | grep -m 1 '^TwoLAME version' || true
    echo "eyeD3 $(eyeD3 --version 2>&1 | head -n 1)"
    python3 --version
    if command -v dpkg-query >/dev/null; then
        dpkg-query -W -f='${Package} ${Version}\n' ffmpeg sox libsox-fmt-all sndfile-programs libsndfile1 libmp3lame0  libopus0 lame twolame eyed3 python3-mutagen vorbis-tools opus-tools libogg0 libvorbisenc2 flac 2>/dev/null || true
    fi
} > "$T/versions.txt"
cat "$T/versions.txt"
python3 tools/provenance.py "$PROV" README.md "$T/versions.txt"

echo "generate.sh: $(find "${DIRS[@]}" -maxdepth 1 -type f ! -name '*.json' | wc -l) files," \
     "$(du -cb $(find "${DIRS[@]}" -maxdepth 1 -type f ! -name '*.ffprobe.json') | tail -1 | cut -f1) bytes"
