#!/usr/bin/env bash
# Installs the Debian packages that Fixtures/generate.sh and Fixtures/make-oracle.sh use.
# Not needed to build or test: fixtures and oracle JSON are committed.
set -euo pipefail
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
$sudo_ apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq \
    ffmpeg sox libsox-fmt-all sndfile-programs lame twolame eyed3 python3-mutagen flac vorbis-tools opus-tools python3
