#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz harness from Fixtures/ (called by Fuzz/run.sh).

    seeds.py FIXTURES_DIR SEEDS_DIR harness...

Format harnesses get whole files of their Fixtures/ folder(s) plus the matching malformed inputs;
FuzzAny every file; FuzzChunking every file (FuzzChunkingMatroska: those of mkv/) with a control trailer (see FuzzChunking.swift). Tag and
codec harnesses get the structures cut out of the fixtures (ID3v2/ID3v1/APEv2 tags, FLAC and Ogg
comment/picture blocks, MP4 boxes, RIFF/AIFF/CAF chunk bodies), prefixed with the selector byte where
the harness reads one. Deterministic; files are named by content hash, so re-running adds nothing twice.
"""
import hashlib
import os
import struct
import sys

fixtures, out_root = sys.argv[1], sys.argv[2]
wanted = sys.argv[3:]
MAX = 256 * 1024


def media(folders, malformed_prefixes=()):
    files = []
    for folder in folders:
        d = os.path.join(fixtures, folder)
        for name in sorted(os.listdir(d)):
            if name.endswith(('.json', '.md', '.sh', '.py', '.txt')):
                continue
            if folder == 'malformed' and malformed_prefixes and not name.startswith(malformed_prefixes):
                continue
            path = os.path.join(d, name)
            if os.path.isfile(path) and os.path.getsize(path) <= MAX:
                files.append(open(path, 'rb').read())
    return files


ALL = ['wav', 'aiff', 'caf', 'au', 'mpeg', 'adts', 'mp4', 'ogg', 'flac', 'mkv', 'ac3', 'ts', 'loas', 'tags', 'malformed']


def be32(b, i):
    return struct.unpack('>I', b[i:i + 4])[0]


def le32(b, i):
    return struct.unpack('<I', b[i:i + 4])[0]


def boxes(data, code):
    """Bodies (after size+type) of every MP4 box of type `code` found by scanning."""
    out, i = [], data.find(code)
    while i >= 4:
        size = be32(data, i - 4)
        if 8 <= size <= len(data) - (i - 4):
            out.append(data[i + 4:i - 4 + size])
        i = data.find(code, i + 1)
    return out


def chunks(data, code, size_bytes=4, little=False):
    out, i = [], data.find(code)
    while i >= 0 and i + 4 + size_bytes <= len(data):
        raw = data[i + 4:i + 4 + size_bytes]
        size = int.from_bytes(raw, 'little' if little else 'big')
        if size <= len(data) - (i + 4 + size_bytes):
            out.append(data[i + 4 + size_bytes:i + 4 + size_bytes + size])
        i = data.find(code, i + 1)
    return out


def flac_blocks(data):
    """(type, body) of the metadata blocks after 'fLaC' (native FLAC and FLAC-in-Ogg headers)."""
    out, i = [], data.find(b'fLaC')
    if i < 0:
        return out
    i += 4
    while i + 4 <= len(data):
        t, size = data[i] & 0x7F, int.from_bytes(data[i + 1:i + 4], 'big')
        out.append((t, data[i + 4:i + 4 + size]))
        if data[i] & 0x80 or size == 0 and t != 1:
            break
        i += 4 + size
    return out


def id3v2_tags(data):
    if data[:3] != b'ID3' or len(data) < 10:
        return []
    size = (data[6] & 0x7F) << 21 | (data[7] & 0x7F) << 14 | (data[8] & 0x7F) << 7 | (data[9] & 0x7F)
    return [data[:10 + size + (10 if data[5] & 0x10 else 0)]]


def ape_tags(data):
    out, i = [], data.find(b'APETAGEX')
    while i >= 0:
        if i + 32 <= len(data):
            size, flags = le32(data, i + 12), le32(data, i + 20)
            if not flags & 0x20000000:  # a footer: the tag ends after it
                start = i + 32 - size - (32 if flags & 0x80000000 else 0)
                if start >= 0:
                    out.append(data[start:i + 32])
        i = data.find(b'APETAGEX', i + 1)
    return out


def after(data, magic, n=4096):
    out, i = [], data.find(magic)
    while i >= 0:
        out.append(data[i:i + n])
        i = data.find(magic, i + 1)
    return out


def seeds_for(h):
    if h == 'FuzzAny':
        return media(ALL)
    if h in ('FuzzChunking', 'FuzzChunkingMatroska'):
        out = []
        folders = ['mkv'] if h == 'FuzzChunkingMatroska' else ALL
        for k, f in enumerate(media(folders)):
            f = f[:64 * 1024]
            out.append(f + bytes([k & 0xFF, 1, 0, 0, 5, 0, 0, 0]))
            if k % 3 == 0:  # 1- to 17-byte chunks, a discontinuity at chunk 5 dropping 17 bytes
                out.append(f + bytes([k & 0xFF, 2, 0, 0, 4 | 8, 0x85, 17, 0]))
            if f[4:8] in (b'ftyp', b'mdat', b'free', b'moov'):  # MP4: hold media before the moov
                out.append(f + bytes([k & 0xFF, 3, 0, 0, 6, 0, 0, 1]))
        return out
    formats = {
        'FuzzMPEG': (['mpeg', 'tags', 'malformed'], ('mpeg',)),
        'FuzzADTS': (['adts', 'malformed'], ('adts',)),
        'FuzzWAVE': (['wav', 'malformed'], ('wav', 'rf64')),
        'FuzzAIFF': (['aiff', 'malformed'], ('aif',)),
        'FuzzCAF': (['caf', 'malformed'], ('caf',)),
        'FuzzNeXT': (['au', 'malformed'], ('au',)),
        'FuzzMP4': (['mp4', 'malformed'], ('mp4',)),
        'FuzzOgg': (['ogg', 'malformed'], ('ogg',)),
        'FuzzFLAC': (['flac', 'malformed'], ('flac',)),
        'FuzzMatroska': (['mkv', 'malformed'], ('mk', 'webm')),
        'FuzzAMR': (['amr'], ('amr', 'awb')),
        'FuzzMPEGTS': (['ts', 'malformed'], ('ts',)),
        'FuzzAC3': (['ac3', 'malformed'], ('ac3', 'eac3')),
        'FuzzEBML': (['mkv', 'malformed'], ('mk', 'webm')),
        'FuzzLOAS': (['loas'], ('loas',)),
    }
    if h in formats:
        return media(*formats[h])
    files = media(ALL)
    out = []
    for f in files:
        if h == 'FuzzID3v2':
            out += id3v2_tags(f)
        elif h == 'FuzzID3v1':
            if len(f) >= 128 and f[-128:-125] == b'TAG':
                out.append(f[-128:])
                out.append(f[-512:])
        elif h == 'FuzzAPEv2':
            out += ape_tags(f)
        elif h == 'FuzzVorbisComment':
            out += [b'\x00' + p for p in after(f, b'\x03vorbis', 2048)]
            out += [b'\x01' + p for p in after(f, b'OpusTags', 2048)]
            out += [b'\x02' + body for t, body in flac_blocks(f) if t == 4]
        elif h == 'FuzzMP4ItemList':
            out += [b[:65536] for b in boxes(f, b'meta')]
            out += boxes(f, b'chpl')
        elif h == 'FuzzFLACPicture':
            out += [body[:65536] for t, body in flac_blocks(f) if t == 6]
        elif h == 'FuzzChunkText':
            out += [b'\x00' + b for b in chunks(f, b'INFO', little=True)]
            out += [b'\x00' + b[4:] for b in chunks(f, b'LIST', little=True) if b[:4] == b'INFO']
            out += [b'\x01' + b for b in chunks(f, b'bext', little=True)]
            out += [b'\x02' + b for code in (b'NAME', b'AUTH', b'ANNO', b'(c) ') for b in chunks(f, code)]
            out += [b'\x03' + b for b in chunks(f, b'COMT')]
            out += [b'\x04' + b for b in chunks(f, b'info', 8)]
            if f[:4] == b'.snd' and len(f) >= 24:
                out.append(b'\x05' + f[24:be32(f, 4)])
            out += [b'\x06' + b for b in chunks(f, b'chan', 8)]
            out += [b'\x07' + p for p in after(f, b"StreamTitle='", 256)]
        elif h == 'FuzzICY':
            if len(out) < 40:
                out.append(b'\x00\x40' + f[:8192])
        elif h == 'FuzzCodecHeaders':
            # Selector bytes: FuzzCodecHeaders.decoders.
            out += [b'\x01' + b for b in boxes(f, b'esds')]
            out += [b'\x02' + f[i - 4:i - 4 + be32(f, i - 4)] for i in (f.find(b'mp4a'), f.find(b'alac'),
                                                                     f.find(b'Opus'), f.find(b'fLaC'))
                    if i >= 4 and f.find(b'stsd') >= 0]
            out += [b'\x03' + b for b in boxes(f, b'dOps')]
            out += [b'\x04' + b for b in boxes(f, b'alac') if len(b) < 64]
            out += [b'\x06' + p for p in after(f, b'OpusHead', 64)]
            out += [b'\x07' + p for p in after(f, b'\x7fFLAC', 64)]
            out += [b'\x08' + p for p in after(f, b'\x01vorbis', 64)]
            out += [b'\x09' + p for p in after(f, b'\x05vorbis', 8192)]
            out += [b'\x0b' + b for b in chunks(f, b'chan', 8)]
            out += [b'\x0c' + b for b in chunks(f, b'desc', 8)]
            out += [b'\x0d' + b[:64] for b in chunks(f, b'pakt', 8)]
            out += [b'\x0e' + body for t, body in flac_blocks(f) if t == 0]
            out += [b'\x0f' + body for t, body in flac_blocks(f) if t == 3]
            out += [b'\x10' + body for t, body in flac_blocks(f) if t == 5]
            out += [b'\x11' + p[:2048] for p in after(f, b'\xff\xfb', 2048)[:1]]
            out += [b'\x13' + b for b in chunks(f, b'fmt ', little=True)]
            out += [b'\x14' + b for b in chunks(f, b'COMM')]
            if f[:4] == b'.snd':
                out.append(b'\x15' + f[:64])
            out += [b'\x16' + b for b in chunks(f, b'ds64', little=True)]
            out += [b'\x17' + p[:16] for p in after(f, b'\xff\xf1', 16)[:1]]
    return out


for h in wanted:
    d = os.path.join(out_root, h)
    os.makedirs(d, exist_ok=True)
    for s in seeds_for(h):
        if not s:
            continue
        name = hashlib.sha1(s).hexdigest()[:16]
        path = os.path.join(d, name)
        if not os.path.exists(path):
            with open(path, 'wb') as fh:
                fh.write(s)
