#!/usr/bin/env bash
# Installs the real servers the loopback streaming tests use (scripts/test-streaming.sh): Debian's
# icecast2 (Icecast 2.4) and nginx (static files with Range support), plus ffmpeg (the Icecast source
# client), curl (admin metadata updates), python3 (checks the JSON output; the paced Ogg source
# client for chained streams), flac (a FLAC file with a SEEKTABLE for the seek tests) and openssl (the
# test CA and certificate of the https:// checks). Idempotent:
# does nothing when all are present.
#
# Needs root (or sudo) and apt. Services are not started: the test starts its own instances with
# generated configs on 127.0.0.1.
set -euo pipefail

missing=()
command -v icecast2 >/dev/null 2>&1 || missing+=(icecast2)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v flac >/dev/null 2>&1 || missing+=(flac)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
        echo "install-streaming-tools.sh: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-streaming-tools.sh: apt-get not found; install ${missing[*]} by hand" >&2
    exit 1
fi

echo "install-streaming-tools.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Do not let package scripts start the system services (the test runs its own instances).
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod +x "$policy"
    created_policy=1
fi
cleanup() { if [ "$created_policy" = 1 ]; then $sudo rm -f "$policy"; fi; }
trap cleanup EXIT
$sudo apt-get update -qq || true
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
