#!/usr/bin/env bash
# Installs the Debian 12 packages that Fixtures/generate.sh and Fixtures/make-oracle.sh use
# (generate.sh checks for every one of them before it changes anything and names this script
# when one is missing). Not needed to build or test: fixtures and oracle JSON are committed.
set -euo pipefail
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
$sudo_ apt-get update -qq
# ffmpeg/ffprobe (with libmp3lame, libopus, libvorbis, libx264), sox, libsndfile's
# sndfile-convert and sndfile-metadata-set, LAME and TwoLAME (MPEG audio), flac
# (flac and metaflac), vorbis-tools (oggenc, vorbiscomment), opus-tools (opusenc), mkvtoolnix
# (mkvmerge, mkvinfo: the Matroska fixtures).
DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq \
    ffmpeg sox libsox-fmt-all sndfile-programs lame twolame flac vorbis-tools opus-tools python3 perl mkvtoolnix
# Taggers for Fixtures/tags/ and the tagged MPEG, FLAC and MP4 fixtures: id3lib's id3v2, eyeD3,
# mutagen (Debian's python3-mutagen, run with /usr/bin/python3; `pip install mutagen`
# works too when that interpreter lacks it) and MP3::Tag (writes ID3v2.3 unsynchronisation).
DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq id3v2 eyed3 python3-mutagen libmp3-tag-perl
/usr/bin/python3 -c 'import mutagen' 2>/dev/null || /usr/bin/python3 -m pip install mutagen
