#!/usr/bin/env python3
"""Derive Fixtures/malformed/ from the real fixtures and merge their rows into manifest.json
(tools/manifest.py: rows of the other generators, flac-* and ogg/*, are kept).

Every file is made from a real encoder output (named in derivedFrom), usually first
shortened to a few hundred frames with consistent sizes (a valid small file), then
broken in exactly one way. Files are named <format>-<defect>.<ext>; the manifest
entry says what is wrong and at which structural point.

Usage: make_malformed.py --fixtures DIR --out DIR [--extra FILE:DEFECT:POINT ...]
Deterministic: no clocks, a fixed-seed PRNG for the random-bytes case.
"""

import argparse
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chunks as C  # noqa: E402
import mpeg as M  # noqa: E402
import manifest  # noqa: E402

FRAMES = 200  # frames kept in the shortened base files

ENTRIES = []
OUT = "."


def emit(name, data, derived_from, defect, point):
    C.write(os.path.join(OUT, name), data)
    ENTRIES.append({"file": name, "derivedFrom": derived_from, "defect": defect,
                    "structuralPoint": point})


def truncations(fmt, ext, base, src, points):
    """points: list of (defect-suffix, length, structural point text)."""
    for suffix, length, point in points:
        assert 0 <= length < len(base), (suffix, length, len(base))
        emit("%s-trunc-%s.%s" % (fmt, suffix, ext), base[:length], src,
             "file truncated to %d of %d bytes" % (length, len(base)), point)


# ------------------------------------------------------------------ base makers

def small_riff(path, frames, block_align):
    """RIFF/FORM file rebuilt with only the first `frames` frames of its audio."""
    buf = C.read(path)

    def edit(pairs):
        out = []
        for cid, data in pairs:
            if cid == b"data":
                data = data[:frames * block_align]
            out.append((cid, data))
        return out

    return bytearray(C.riff_rebuild(buf, edit))


def small_aiff(path, frames, block_align):
    buf = C.read(path)

    def edit(pairs):
        out = []
        for cid, data in pairs:
            if cid == b"COMM":
                data = data[:2] + struct.pack(">I", frames) + data[6:]
            elif cid == b"SSND":
                off = struct.unpack(">I", data[:4])[0]
                data = data[:8 + off + frames * block_align]
            out.append((cid, data))
        return out

    return bytearray(C.riff_rebuild(buf, edit))


def small_rf64(path, frames, block_align):
    """Rebuild an ffmpeg RF64 file (ds64 + fmt + data) with fewer frames."""
    buf = C.read(path)
    chunks = C.riff_chunks(buf)
    fmt = next(c for c in chunks if c.id == b"fmt ").data
    data_c = next(c for c in chunks if c.id == b"data")
    data = bytes(buf[data_c.data_offset:data_c.data_offset + frames * block_align])
    body_len = 4 + (8 + 28) + (8 + len(fmt)) + (8 + len(data))
    ds64 = struct.pack("<QQQI", body_len, len(data), frames, 0)
    out = bytearray(b"RF64" + struct.pack("<I", 0xFFFFFFFF) + b"WAVE")
    out += b"ds64" + struct.pack("<I", len(ds64)) + ds64
    out += b"fmt " + struct.pack("<I", len(fmt)) + fmt
    out += b"data" + struct.pack("<I", 0xFFFFFFFF) + data
    return out


def small_caf(path, frames, block_align):
    buf = C.read(path)
    pairs = []
    for c in C.caf_chunks(buf):
        data = c.data
        if c.id == b"data":
            data = data[:4 + frames * block_align]
        pairs.append((c.id, data))
    return bytearray(C.caf_build(pairs, bytes(buf[:8])))


def small_au(path, frames, block_align):
    buf = C.read(path)
    h = C.au_header(buf)
    n = frames * block_align
    out = bytearray(buf[:h["offset"] + n])
    out[8:12] = struct.pack(">I", n)
    return out


def offset_of(buf, cid, kind="riff"):
    lst = C.riff_chunks(buf) if kind == "riff" else C.caf_chunks(buf)
    for c in lst:
        if c.id == cid:
            return c
    raise KeyError(cid)


# ----------------------------------------------------------------------- WAVE

def wav_cases(fx):
    src = "wav/pcm_s16le-44100-2ch.wav"
    base = small_riff(os.path.join(fx, src), FRAMES, 4)   # 44-byte header + 800 bytes
    desc = src + " (first %d frames, sizes rewritten)" % FRAMES
    fmt = offset_of(base, b"fmt ")
    data = offset_of(base, b"data")
    truncations("wav", "wav", base, desc, [
        ("magic", 2, "inside the 'RIFF' magic"),
        ("after-riff-header", 12, "right after 'RIFF' size 'WAVE' (no chunk yet)"),
        ("in-chunk-header", 12 + 6, "inside the fmt chunk header (id + half of the size field)"),
        ("in-fmt", fmt.data_offset + 8, "inside the fmt chunk body (8 of 16 bytes)"),
        ("after-fmt", data.offset, "right after the fmt chunk, before the data chunk header"),
        ("in-data-header", data.offset + 5, "inside the data chunk header"),
        ("after-data-header", data.data_offset, "data header complete, no audio bytes"),
        ("mid-data", data.data_offset + 100 * 4 + 2, "inside the audio: 100 whole frames + 2 bytes (partial last frame)"),
    ])

    def patched(name, edit, defect, point, b=None):
        buf = bytearray(base if b is None else b)
        edit(buf)
        emit(name, buf, desc, defect, point)

    def set_u32(off, v):
        return lambda b: b.__setitem__(slice(off, off + 4), struct.pack("<I", v))

    def set_u16(off, v):
        return lambda b: b.__setitem__(slice(off, off + 2), struct.pack("<H", v))

    patched("wav-data-size-larger-than-file.wav", set_u32(data.offset + 4, 0x00100000),
            "data size 0x00100000 but only 800 bytes follow (RIFF size unchanged)", "data chunk size field @%d" % (data.offset + 4))
    patched("wav-riff-size-larger-than-file.wav", set_u32(4, 0x00100000),
            "RIFF size 0x00100000, file is 844 bytes", "RIFF size field @4")
    patched("wav-fmt-size-larger-than-file.wav", set_u32(fmt.offset + 4, 0x00010000),
            "fmt size 0x10000: runs past end of file", "fmt chunk size field @%d" % (fmt.offset + 4))
    patched("wav-data-size-4g.wav", set_u32(data.offset + 4, 0xFFFFFFF0),
            "data size 0xFFFFFFF0 (near 2^32, not the 0xFFFFFFFF streaming marker)", "data chunk size field @%d" % (data.offset + 4))
    patched("wav-fmt-size-4g.wav", set_u32(fmt.offset + 4, 0xFFFFFFF0),
            "fmt size 0xFFFFFFF0: must not be allocated or buffered", "fmt chunk size field @%d" % (fmt.offset + 4))
    patched("wav-riff-size-4g.wav", set_u32(4, 0xFFFFFFF0),
            "RIFF size 0xFFFFFFF0 (near 2^32)", "RIFF size field @4")
    patched("wav-data-exceeds-riff.wav", set_u32(4, 4 + 24 + 8 + 100),
            "RIFF size says the form ends 100 bytes into the data chunk, whose own size says 800",
            "RIFF size field @4 vs data chunk @%d" % data.offset)

    def with_chunk(cid, payload, before=b"data"):
        def edit(pairs):
            i = [p[0] for p in pairs].index(before)
            return pairs[:i] + [(cid, payload)] + pairs[i:]
        return bytearray(C.riff_rebuild(base, edit))

    b = with_chunk(b"LIST", b"INFO" + b"INAM\x04\x00\x00\x00abc\x00")
    lst = offset_of(b, b"LIST")
    patched("wav-list-size-4g.wav", set_u32(lst.offset + 4, 0xFFFFFFF0),
            "LIST chunk before data claims 0xFFFFFFF0 bytes: data chunk unreachable", "LIST chunk size field @%d" % (lst.offset + 4), b)
    b = with_chunk(b"zero", b"")
    emit("wav-unknown-chunk-size-0.wav", b, desc,
         "VALID: unknown chunk 'zero' of size 0 between fmt and data (must be skipped, no loop)",
         "chunk header @%d" % offset_of(b, b"zero").offset)
    b = bytearray(C.riff_rebuild(base, lambda pairs: [(c, b"" if c == b"fmt " else d) for c, d in pairs]))
    emit("wav-fmt-size-0.wav", b, desc, "fmt chunk of size 0 (no format fields)", "fmt chunk @12")
    patched("wav-fmt-channels-0.wav", set_u16(fmt.data_offset + 2, 0), "fmt nChannels = 0", "fmt body +2")
    patched("wav-fmt-rate-0.wav", set_u32(fmt.data_offset + 4, 0), "fmt nSamplesPerSec = 0", "fmt body +4")
    patched("wav-fmt-bits-0.wav", set_u16(fmt.data_offset + 14, 0), "fmt wBitsPerSample = 0", "fmt body +14")
    patched("wav-fmt-blockalign-0.wav", set_u16(fmt.data_offset + 12, 0), "fmt nBlockAlign = 0 (PCM: would divide by zero)", "fmt body +12")
    b = bytearray(C.riff_rebuild(base, lambda pairs: [p for p in pairs if p[0] != b"fmt "]))
    emit("wav-no-fmt.wav", b, desc, "data chunk without any fmt chunk", "data chunk @12")

    def ext_short(pairs):
        out = []
        for c, d in pairs:
            if c == b"fmt ":
                d = struct.pack("<H", 0xFFFE) + d[2:16] + struct.pack("<H", 22)
            out.append((c, d))
        return out
    b = bytearray(C.riff_rebuild(base, ext_short))
    emit("wav-extensible-truncated.wav", b, desc,
         "fmt tag 0xFFFE (extensible) with cbSize 22 but fmt size 18: extension missing", "fmt chunk @12")

    # odd-size chunk written without its pad byte (a common writer bug)
    buf = bytearray(base[:data.offset]) + b"ODDc" + struct.pack("<I", 7) + b"ABCDEFG" + bytearray(base[data.offset:])
    buf[4:8] = struct.pack("<I", len(buf) - 8)
    emit("wav-odd-chunk-no-pad.wav", buf, desc,
         "odd-size chunk 'ODDc' (7 bytes) NOT followed by a pad byte: the data header starts at an odd offset",
         "ODDc chunk @%d, data header @%d" % (data.offset, data.offset + 15))

    b = bytearray(base)
    b[8:12] = b"AVI "
    emit("wav-formtype-not-wave.wav", b, desc, "RIFF form type 'AVI ' instead of 'WAVE'", "form type @8")


# ------------------------------------------------------------------------ RF64

def rf64_cases(fx):
    src = "wav/pcm_s16le-44100-2ch-rf64.wav"
    base = small_rf64(os.path.join(fx, src), FRAMES, 4)
    desc = src + " (first %d frames, ds64 rewritten)" % FRAMES
    ds64 = offset_of(base, b"ds64")
    fmt = offset_of(base, b"fmt ")
    data = offset_of(base, b"data")
    truncations("rf64", "wav", base, desc, [
        ("magic", 2, "inside the 'RF64' magic"),
        ("after-riff-header", 12, "right after 'RF64' 0xFFFFFFFF 'WAVE'"),
        ("in-ds64-header", 12 + 5, "inside the ds64 chunk header"),
        ("in-ds64", ds64.data_offset + 12, "inside the ds64 body (riffSize read, dataSize half read)"),
        ("after-ds64", fmt.offset, "right after ds64, before fmt"),
        ("in-fmt", fmt.data_offset + 8, "inside the fmt body"),
        ("after-fmt", data.offset, "right after fmt, before the data chunk header"),
        ("in-data-header", data.offset + 6, "inside the data chunk header"),
        ("mid-data", data.data_offset + 100 * 4 + 2, "inside the audio: 100 frames + 2 bytes (partial last frame)"),
    ])

    def patched(name, off, fmtc, value, defect, point, b=None):
        buf = bytearray(base if b is None else b)
        buf[off:off + struct.calcsize(fmtc)] = struct.pack(fmtc, value)
        emit(name, buf, desc, defect, point)

    d = ds64.data_offset
    patched("rf64-ds64-data-size-2e63.wav", d + 8, "<Q", 0x7FFFFFFFFFFFFFF0,
            "ds64 dataSize 0x7FFFFFFFFFFFFFF0 (near 2^63)", "ds64 dataSize @%d" % (d + 8))
    patched("rf64-ds64-data-size-2e64.wav", d + 8, "<Q", 0xFFFFFFFFFFFFFFF0,
            "ds64 dataSize 0xFFFFFFFFFFFFFFF0 (near 2^64; negative if read as signed)", "ds64 dataSize @%d" % (d + 8))
    patched("rf64-ds64-riff-size-2e64.wav", d, "<Q", 0xFFFFFFFFFFFFFFF0,
            "ds64 riffSize 0xFFFFFFFFFFFFFFF0", "ds64 riffSize @%d" % d)
    patched("rf64-ds64-data-size-larger-than-file.wav", d + 8, "<Q", 0x100000,
            "ds64 dataSize 0x100000 but only 800 bytes of audio", "ds64 dataSize @%d" % (d + 8))
    patched("rf64-ds64-table-length-huge.wav", d + 24, "<I", 0xFFFFFFF0,
            "ds64 tableLength 0xFFFFFFF0: table entries run far past the 28-byte chunk", "ds64 tableLength @%d" % (d + 24))
    patched("rf64-data-size-not-ffffffff.wav", data.offset + 4, "<I", 0x100,
            "data chunk size 0x100 instead of 0xFFFFFFFF while ds64 says 800 (conflict)", "data size field @%d" % (data.offset + 4))
    # ds64 of size 0
    b = bytearray(base[:12]) + b"ds64" + struct.pack("<I", 0) + bytearray(base[fmt.offset:])
    emit("rf64-ds64-size-0.wav", b, desc, "ds64 chunk of size 0 (no 64-bit sizes, data size 0xFFFFFFFF)", "ds64 chunk @12")
    # no ds64 at all
    b = bytearray(base[:12]) + bytearray(base[fmt.offset:])
    emit("rf64-no-ds64.wav", b, desc, "RF64 magic but no ds64 chunk; data size 0xFFFFFFFF", "first chunk @12 is fmt")


# ------------------------------------------------------------------------ AIFF

def aiff_cases(fx):
    src = "aiff/pcm_s16be-44100-2ch.aiff"
    base = small_aiff(os.path.join(fx, src), FRAMES, 4)
    desc = src + " (first %d frames, sizes rewritten)" % FRAMES
    comm = offset_of(base, b"COMM")
    ssnd = offset_of(base, b"SSND")
    truncations("aiff", "aiff", base, desc, [
        ("magic", 2, "inside the 'FORM' magic"),
        ("after-form-header", 12, "right after 'FORM' size 'AIFF'"),
        ("in-chunk-header", 12 + 6, "inside the COMM chunk header"),
        ("in-comm", comm.data_offset + 9, "inside COMM (in the extended-float sample rate)"),
        ("after-comm", ssnd.offset, "right after COMM, before the SSND header"),
        ("in-ssnd-header", ssnd.offset + 5, "inside the SSND chunk header"),
        ("in-ssnd-offset", ssnd.data_offset + 6, "inside SSND offset/blockSize fields"),
        ("mid-data", ssnd.data_offset + 8 + 100 * 4 + 3, "inside the audio: 100 frames + 3 bytes (partial last frame)"),
    ])

    def patched(name, off, data, defect, point, b=None):
        buf = bytearray(base if b is None else b)
        buf[off:off + len(data)] = data
        emit(name, buf, desc, defect, point)

    c = comm.data_offset
    u32 = lambda v: struct.pack(">I", v)  # noqa: E731
    patched("aiff-comm-size-0.aiff", comm.offset + 4, u32(0),
            "COMM size 0; its 18 bytes are then read as the next chunk header", "COMM size field @%d" % (comm.offset + 4))
    patched("aiff-ssnd-size-larger-than-file.aiff", ssnd.offset + 4, u32(0x00100000),
            "SSND size 0x00100000, only 808 bytes follow", "SSND size field @%d" % (ssnd.offset + 4))
    patched("aiff-ssnd-size-4g.aiff", ssnd.offset + 4, u32(0xFFFFFFF0),
            "SSND size 0xFFFFFFF0 (near 2^32)", "SSND size field @%d" % (ssnd.offset + 4))
    patched("aiff-form-size-4g.aiff", 4, u32(0xFFFFFFF0), "FORM size 0xFFFFFFF0", "FORM size field @4")
    patched("aiff-ssnd-exceeds-form.aiff", 4, u32(4 + 26 + 8 + 100),
            "FORM size ends 100 bytes into the SSND payload (92 bytes of audio), whose own size says 808", "FORM size field @4 vs SSND @%d" % ssnd.offset)
    patched("aiff-rate-nan.aiff", c + 8, C.ieee_extended(float("nan")), "sample rate (80-bit extended) is NaN", "COMM sampleRate @%d" % (c + 8))
    patched("aiff-rate-inf.aiff", c + 8, C.ieee_extended(float("inf")), "sample rate is +infinity", "COMM sampleRate @%d" % (c + 8))
    patched("aiff-rate-0.aiff", c + 8, C.ieee_extended(0.0), "sample rate is 0", "COMM sampleRate @%d" % (c + 8))
    patched("aiff-rate-negative.aiff", c + 8, b"\xc0\x0e\xac\x44" + b"\x00" * 6, "sample rate is -44100", "COMM sampleRate @%d" % (c + 8))
    patched("aiff-rate-huge.aiff", c + 8, b"\x7f\xfe\x80" + b"\x00" * 7, "sample rate 2^16383 (finite, overflows a Double)", "COMM sampleRate @%d" % (c + 8))
    patched("aiff-comm-channels-0.aiff", c, struct.pack(">H", 0), "COMM numChannels = 0", "COMM +0")
    patched("aiff-comm-bits-0.aiff", c + 6, struct.pack(">H", 0), "COMM sampleSize = 0", "COMM +6")
    patched("aiff-ssnd-offset-past-chunk.aiff", ssnd.data_offset, u32(0x10000),
            "SSND offset field 0x10000 > SSND size (808)", "SSND offset @%d" % ssnd.data_offset)
    b = bytearray(C.riff_rebuild(base, lambda pairs: [p for p in pairs if p[0] != b"COMM"]))
    emit("aiff-no-comm.aiff", b, desc, "SSND without any COMM chunk", "SSND chunk @12")
    b = bytearray(C.riff_rebuild(base, lambda pairs: pairs[:1] + [(b"zero", b"")] + pairs[1:]))
    emit("aiff-unknown-chunk-size-0.aiff", b, desc,
         "VALID: unknown chunk 'zero' of size 0 between COMM and SSND (must be skipped)", "chunk @%d" % offset_of(b, b"zero").offset)
    b = bytearray(base)
    b[8:12] = b"8SVX"
    emit("aiff-formtype-8svx.aiff", b, desc, "FORM type '8SVX' (Amiga IFF) instead of AIFF/AIFC", "form type @8")


def aifc_cases(fx):
    src = "aiff/pcm_s16be-44100-2ch-none.aifc"
    base = small_aiff(os.path.join(fx, src), FRAMES, 4)
    desc = src + " (first %d frames, sizes rewritten)" % FRAMES
    fver = offset_of(base, b"FVER")
    comm = offset_of(base, b"COMM")
    ssnd = offset_of(base, b"SSND")
    truncations("aifc", "aifc", base, desc, [
        ("magic", 2, "inside the 'FORM' magic"),
        ("after-form-header", 12, "right after 'FORM' size 'AIFC'"),
        ("in-fver", fver.data_offset + 2, "inside the FVER body"),
        ("after-fver", comm.offset, "right after FVER, before COMM"),
        ("in-comm-compression", comm.data_offset + 20, "inside COMM's compressionType"),
        ("in-comm-name", comm.data_offset + 26, "inside COMM's compressionName pstring"),
        ("after-comm", ssnd.offset, "right after COMM, before SSND"),
        ("in-ssnd-header", ssnd.offset + 6, "inside the SSND chunk header"),
        ("mid-data", ssnd.data_offset + 8 + 100 * 4 + 1, "inside the audio: 100 frames + 1 byte (partial last frame)"),
    ])

    def comm_edit(fn):
        return bytearray(C.riff_rebuild(base, lambda pairs: [(c, fn(d) if c == b"COMM" else d) for c, d in pairs]))

    emit("aifc-unknown-compression.aifc", comm_edit(lambda d: d[:18] + b"XXXX" + b"\x00\x00"), desc,
         "compressionType 'XXXX' (unknown codec): structurally valid, format unsupported", "COMM compressionType")
    emit("aifc-compression-name-past-chunk.aifc", comm_edit(lambda d: d[:22] + b"\xffabc"), desc,
         "compressionName pstring count 255 but COMM ends 3 bytes later", "COMM compressionName")
    emit("aifc-comm-size-20.aifc", comm_edit(lambda d: d[:20]), desc,
         "COMM of 20 bytes: compressionType cut in half", "COMM chunk")
    b = bytearray(C.riff_rebuild(base, lambda pairs: [p for p in pairs if p[0] != b"FVER"]))
    emit("aifc-no-fver.aifc", b, desc, "AIFC without FVER chunk (tolerated by most readers)", "COMM chunk @12")


# ------------------------------------------------------------------------- CAF

def caf_cases(fx):
    src = "caf/pcm_s16le-44100-2ch.caf"
    base = small_caf(os.path.join(fx, src), FRAMES, 4)
    desc = src + " (first %d frames, sizes rewritten)" % FRAMES
    dsc = offset_of(base, b"desc", "caf")
    chan = offset_of(base, b"chan", "caf")
    data = offset_of(base, b"data", "caf")
    truncations("caf", "caf", base, desc, [
        ("magic", 2, "inside the 'caff' magic"),
        ("in-file-header", 6, "inside the file header (version/flags)"),
        ("after-file-header", 8, "right after the 8-byte file header"),
        ("in-chunk-header", 8 + 7, "inside the desc chunk header (in the int64 size)"),
        ("in-desc", dsc.data_offset + 16, "inside the desc body (after formatID/flags)"),
        ("after-desc", chan.offset, "right after desc, before the next chunk"),
        ("in-data-header", data.offset + 6, "inside the data chunk header"),
        ("in-edit-count", data.data_offset + 2, "inside the data chunk's 4-byte edit count"),
        ("mid-data", data.data_offset + 4 + 100 * 4 + 2, "inside the audio: 100 frames + 2 bytes (partial last frame)"),
    ])

    def patched(name, off, blob, defect, point, b=None):
        buf = bytearray(base if b is None else b)
        buf[off:off + len(blob)] = blob
        emit(name, buf, desc, defect, point)

    q = lambda v: struct.pack(">Q", v)  # noqa: E731
    patched("caf-desc-size-0.caf", dsc.offset + 4, q(0), "desc chunk size 0 (its 32 bytes then parse as chunk headers)", "desc size @%d" % (dsc.offset + 4))
    patched("caf-desc-size-larger-than-file.caf", dsc.offset + 4, q(0x100000), "desc size 0x100000", "desc size @%d" % (dsc.offset + 4))
    patched("caf-data-size-larger-than-file.caf", data.offset + 4, q(0x100000), "data size 0x100000, 804 bytes present", "data size @%d" % (data.offset + 4))
    patched("caf-data-size-2e63.caf", data.offset + 4, q(0x7FFFFFFFFFFFFFF0), "data size 0x7FFFFFFFFFFFFFF0 (near 2^63)", "data size @%d" % (data.offset + 4))
    patched("caf-data-size-2e64.caf", data.offset + 4, q(0xFFFFFFFFFFFFFFF0),
            "data size 0xFFFFFFFFFFFFFFF0 = -16 as int64 (only -1 is legal)", "data size @%d" % (data.offset + 4))
    patched("caf-chan-size-2e63.caf", chan.offset + 4, q(0x7FFFFFFFFFFFFFF0),
            "chan chunk before data claims 0x7FFFFFFFFFFFFFF0 bytes: skipping it overflows offsets", "chan size @%d" % (chan.offset + 4))
    patched("caf-chan-size-2e64.caf", chan.offset + 4, q(0xFFFFFFFFFFFFFFF0),
            "chan chunk size -16 (negative, not the -1 data marker)", "chan size @%d" % (chan.offset + 4))
    patched("caf-desc-formatid-0.caf", dsc.data_offset + 8, b"\x00\x00\x00\x00", "desc mFormatID = 0", "desc +8")
    patched("caf-desc-rate-0.caf", dsc.data_offset, struct.pack(">d", 0.0), "desc mSampleRate = 0.0", "desc +0")
    patched("caf-desc-rate-nan.caf", dsc.data_offset, b"\x7f\xf8" + b"\x00" * 6, "desc mSampleRate = NaN", "desc +0")
    patched("caf-desc-channels-0.caf", dsc.data_offset + 24, struct.pack(">I", 0), "desc mChannelsPerFrame = 0", "desc +24")
    patched("caf-desc-bytesperpacket-0.caf", dsc.data_offset + 16, struct.pack(">I", 0),
            "lpcm desc with mBytesPerPacket = 0 (VBR) but no pakt chunk", "desc +16")
    patched("caf-version-2.caf", 4, struct.pack(">H", 2), "file version 2 (only 1 is defined)", "file header @4")
    pairs = [(c.id, c.data) for c in C.caf_chunks(base)]
    b = bytearray(C.caf_build([p for p in pairs if p[0] != b"desc"]))
    emit("caf-no-desc.caf", b, desc, "no desc chunk (the spec requires it first)", "first chunk @8 is chan")
    b = bytearray(C.caf_build([pairs[0], (b"zero", b"")] + pairs[1:]))
    emit("caf-unknown-chunk-size-0.caf", b, desc, "VALID: unknown chunk 'zero' of size 0 after desc (must be skipped)", "chunk @%d" % (8 + 12 + 32))

    # ALAC based: kuki and pakt
    asrc = "caf/alac-8000-1ch-silence.caf"
    abuf = C.read(os.path.join(fx, asrc))
    kuki = offset_of(abuf, b"kuki", "caf")
    pakt = offset_of(abuf, b"pakt", "caf")
    adata = offset_of(abuf, b"data", "caf")
    for suffix, n, point in [
            ("in-kuki", kuki.data_offset + 10, "inside the kuki (magic cookie)"),
            ("in-pakt", pakt.data_offset + 25, "inside the pakt varint table (after the 24-byte pakt header)"),
            ("mid-packet", adata.data_offset + 4 + 10, "inside the first ALAC packet")]:
        if n >= len(abuf):
            continue
        emit("caf-alac-trunc-%s.caf" % suffix, abuf[:n], asrc, "file truncated to %d of %d bytes" % (n, len(abuf)), point)

    def apatched(name, off, blob, defect, point):
        buf = bytearray(abuf)
        buf[off:off + len(blob)] = blob
        emit(name, buf, asrc, defect, point)

    p = pakt.data_offset
    apatched("caf-pakt-count-2e40.caf", p, q(1 << 40), "pakt mNumberPackets = 2^40 (table cannot be that large)", "pakt +0")
    apatched("caf-pakt-size-2e63.caf", pakt.offset + 4, q(0x7FFFFFFFFFFFFFF0), "pakt chunk size 0x7FFFFFFFFFFFFFF0", "pakt size @%d" % (pakt.offset + 4))
    apatched("caf-kuki-size-2e64.caf", kuki.offset + 4, q(0xFFFFFFFFFFFFFFF0), "kuki size -16", "kuki size @%d" % (kuki.offset + 4))
    # last varint of the table keeps its continuation bit set up to the chunk end
    buf = bytearray(abuf)
    end = pakt.data_offset + pakt.size
    buf[end - 1] |= 0x80
    buf[end - 2] |= 0x80
    emit("caf-pakt-varint-overrun.caf", buf, asrc,
         "last pakt varints have the continuation bit set at the chunk end: the varint runs past the pakt chunk",
         "pakt bytes @%d..%d" % (end - 2, end - 1))
    apatched("caf-pakt-count-too-small.caf", p, q(1), "pakt mNumberPackets = 1 while the data holds more packets", "pakt +0")
    apatched("caf-pakt-valid-frames-huge.caf", p + 8, q(0x7FFFFFFFFFFFFFF0), "pakt mNumberValidFrames 0x7FFFFFFFFFFFFFF0", "pakt +8")
    apatched("caf-alac-data-size-2e64.caf", adata.offset + 4, q(0xFFFFFFFFFFFFFFF0), "ALAC data size -16", "data size @%d" % (adata.offset + 4))


# -------------------------------------------------------------------------- AU

def au_cases(fx):
    src = "au/pcm_s16be-8000-1ch-sox.au"
    base = small_au(os.path.join(fx, src), 400, 2)
    desc = src + " (first 400 frames, size rewritten)"
    off = C.au_header(base)["offset"]
    truncations("au", "au", base, desc, [
        ("magic", 2, "inside the '.snd' magic"),
        ("in-header", 12, "inside the 24-byte header (after data size)"),
        ("after-header", 24, "right after the 24-byte header, inside the annotation"),
        ("in-annotation", 30, "inside the annotation"),
        ("after-annotation", off, "header and annotation complete, no audio"),
        ("mid-data", off + 100 * 2 + 1, "inside the audio: 100 frames + 1 byte (partial last frame)"),
    ])

    def patched(name, pos, value, defect, point):
        buf = bytearray(base)
        buf[pos:pos + 4] = struct.pack(">I", value)
        emit(name, buf, desc, defect, point)

    patched("au-offset-lt-24.au", 4, 16, "data offset 16 (< 24-byte header)", "header offset field @4")
    patched("au-offset-0.au", 4, 0, "data offset 0", "header offset field @4")
    patched("au-offset-gt-filesize.au", 4, 0x10000, "data offset 0x10000 > file size", "header offset field @4")
    patched("au-offset-4g.au", 4, 0xFFFFFFF0, "data offset 0xFFFFFFF0", "header offset field @4")
    patched("au-datasize-larger-than-file.au", 8, 0x100000, "data size 0x100000 (not the 0xFFFFFFFF marker), 800 bytes present", "header size field @8")
    patched("au-encoding-unknown.au", 12, 99, "encoding 99 (undefined)", "header encoding field @12")
    patched("au-encoding-0.au", 12, 0, "encoding 0 (unspecified)", "header encoding field @12")
    patched("au-rate-0.au", 16, 0, "sample rate 0", "header rate field @16")
    patched("au-channels-0.au", 20, 0, "channels 0", "header channels field @20")
    patched("au-channels-huge.au", 20, 0xFFFFFFFF, "channels 0xFFFFFFFF", "header channels field @20")


# ------------------------------------------------------------------------ MPEG

def mpeg_cases(fx):
    src = "mpeg/mp3-44100-2ch-lame-notag.mp3"
    buf = C.read(os.path.join(fx, src))
    frames = M.frames(buf, 0)
    n15 = frames[14][0] + frames[14][1]
    base = bytearray(buf[:n15])           # 15 whole frames, no tag
    desc = src + " (first 15 frames)"
    f10 = frames[10][0]
    emit("mpeg-trunc-mid-frame.mp3", base[:f10 + 100], desc,
         "10 whole frames then the first 100 bytes of frame 10 (%d bytes): partial last frame" % frames[10][1],
         "inside frame 10 @%d" % f10)
    emit("mpeg-trunc-in-header.mp3", base[:2], desc, "only the first 2 bytes of the first frame header",
         "inside the first frame header")

    def patched_header(name, edit, defect):
        b = bytearray(base)
        off = frames[5][0]
        edit(b, off)
        emit(name, b, desc, defect, "header of frame 5 @%d" % off)

    patched_header("mpeg-bitrate-index-15.mp3", lambda b, o: b.__setitem__(o + 2, b[o + 2] | 0xF0),
                   "frame 5 header has bitrate_index 15 (forbidden): that frame is junk, the parser resyncs at frame 6")
    patched_header("mpeg-samplerate-index-3.mp3", lambda b, o: b.__setitem__(o + 2, b[o + 2] | 0x0C),
                   "frame 5 header has sampling_frequency 3 (reserved): that frame is junk, the parser resyncs at frame 6")

    # Junk only: text with header-like words that never confirm (false syncs).
    rng = random.Random(20240507)
    junk = bytearray()
    while len(junk) < 4096:
        junk += b"not MPEG audio, just junk " if rng.random() < 0.9 else b"\xff\xfb\x90\x64"
    emit("mpeg-junk-only.mp3", junk[:4096], "(none)",
         "4096 bytes of text with scattered 0xFFFB9064 header words that no next frame confirms",
         "no frame anywhere")

    # ID3v2.3 tag whose PRIV frame holds three real frames (syncs inside the tag), then 12 frames.
    inner = bytes(buf[frames[0][0]:frames[2][0] + frames[2][1]])
    priv = b"fixtures\x00" + inner
    frame = b"PRIV" + struct.pack(">I", len(priv)) + b"\x00\x00" + priv

    def syncsafe(n):
        return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
    tag = b"ID3\x03\x00\x00" + syncsafe(len(frame)) + frame
    audio = bytes(buf[:frames[11][0] + frames[11][1]])
    emit("mpeg-sync-in-id3.mp3", tag + audio, desc,
         "VALID: ID3v2.3 tag (%d bytes) whose PRIV frame holds 3 complete MPEG frames; 12 real frames follow" % len(tag),
         "ID3v2 tag @0, audio @%d" % len(tag))
    emit("mpeg-id3v2-size-256mb.mp3",
         b"ID3\x04\x00\x00" + syncsafe(0x0FFFFFFF) + audio, desc,
         "ID3v2.4 header claiming 268435455 bytes (syncsafe 0x7F7F7F7F) in front of 12 frames: the tag never ends",
         "ID3v2 size field @6")
    emit("mpeg-id3v2-only.mp3", tag, desc, "an ID3v2 tag and nothing after it (no audio)", "end of the tag")
    emit("mpeg-trunc-in-id3v2.mp3", tag[:len(tag) // 2], desc, "file cut in the middle of the ID3v2 tag",
         "inside the ID3v2 tag @%d" % (len(tag) // 2))

    # Info-tagged stream cut short: the tag declares 40 frames, 14 remain.
    xsrc = "mpeg/mp3-44100-2ch-lame-cbr128.mp3"
    xbuf = C.read(os.path.join(fx, xsrc))
    xframes = M.frames(xbuf, 0)
    cut = xframes[14][0] + xframes[14][1]
    emit("mpeg-xing-count-exceeds-stream.mp3", xbuf[:cut], xsrc,
         "Info frame + 14 audio frames, but the Info tag declares 40 frames and %d bytes" % len(xbuf),
         "end of stream after frame 14 @%d" % cut)
    # LAME delay/padding larger than the stream: Info frame + 1 audio frame, delay = padding = 4095.
    b = bytearray(xbuf[:xframes[1][0] + xframes[1][1]])
    lame = 36 + 120                      # LAME extension offset in an MPEG-1 stereo Info frame
    b[36 + 8:36 + 12] = struct.pack(">I", 1)   # Xing frames = 1
    b[lame + 21:lame + 24] = b"\xff\xff\xff"
    emit("mpeg-lame-delay-exceeds-stream.mp3", b, xsrc,
         "Info frame (frames = 1) + 1 audio frame with LAME delay and padding 4095: priming exceeds the stream (tag CRC no longer matches)",
         "LAME extension delay/padding @%d" % (lame + 21))
# ------------------------------------------------------------------------ ADTS

def adts_cases(fx):
    import adts as A  # tools/adts.py
    src = "adts/aac-44100-2ch.aac"
    full = C.read(os.path.join(fx, src))
    frames = A.frames(full)
    keep = 10
    base = bytearray(full[:frames[keep][0]])   # the first 10 frames (a valid small stream)
    fs = A.frames(base)
    desc = src + " (first %d frames)" % keep

    def with_frame_length(buf, i, length):
        off = fs[i][0]
        h = A.set_header(buf[off:off + 7], 1, length, 1)
        buf[off:off + 7] = h

    def with_sfi(buf, i, sfi):
        off = fs[i][0]
        buf[off + 2] = (buf[off + 2] & 0xC3) | (sfi << 2)

    b = bytearray(base)
    for i in range(len(fs)):
        with_sfi(b, i, 15)
    emit("adts-sf-index-15.aac", b, desc, "sampling_frequency_index 15 (escape, invalid in ADTS) in every frame header",
         "every header, byte 2 bits 2-5")
    b = bytearray(base)
    with_sfi(b, 0, 15)
    emit("adts-sf-index-15-first-frame.aac", b, desc,
         "sampling_frequency_index 15 in the first frame only: frame 0 must be rejected, frames 1-9 kept",
         "frame 0 header @0")
    b = bytearray(base)
    with_sfi(b, 4, 13)
    emit("adts-sf-index-13-frame-4.aac", b, desc,
         "sampling_frequency_index 13 (reserved) in frame 4: lost sync there, frame 4 skipped",
         "frame 4 header @%d" % fs[4][0])
    b = bytearray(base)
    with_frame_length(b, 3, 5)
    emit("adts-frame-length-short.aac", b, desc,
         "aac_frame_length 5 (< the 7-byte header) in frame 3: lost sync there, frame 3 skipped",
         "frame 3 header @%d" % fs[3][0])
    b = bytearray(base)
    with_frame_length(b, 3, fs[3][1] + 100)
    emit("adts-frame-length-long.aac", b, desc,
         "aac_frame_length of frame 3 is 100 bytes too long (ends inside frame 4): frame 3 dropped, frame 4 kept",
         "frame 3 header @%d" % fs[3][0])
    last = fs[-1]
    emit("adts-truncated-last-frame.aac", base[:last[0] + last[1] // 2], desc,
         "file cut in the middle of the last frame (%d of %d bytes)" % (last[1] // 2, last[1]),
         "frame 9 @%d" % last[0])
    emit("adts-truncated-in-header.aac", base[:last[0] + 4], desc,
         "file cut 4 bytes into the last frame's header", "frame 9 header @%d" % last[0])
    rng = random.Random(20240507)
    junk = bytearray()
    while len(junk) < 4096:
        # sync words with random header bits, never two agreeing at the right distance
        junk += bytes([0xFF, 0xF1]) + bytes(rng.getrandbits(8) for _ in range(rng.randrange(3, 40)))
    emit("adts-junk-only.aac", junk[:4096], "(none)",
         "4096 bytes of syncwords (0xFFF1) followed by random bytes (Python random.Random(20240507)); no frame has an agreeing successor",
         "no valid frame anywhere")


# ------------------------------------------------------------------------- mp4

MP4_CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts", b"udta", b"mvex", b"moof", b"traf"}


def mp4_boxes(buf, start, end):
    """[(type, offset, header_size, size)] of the boxes in buf[start:end] (32-bit sizes only)."""
    out = []
    at = start
    while at + 8 <= end:
        size, typ = struct.unpack(">I4s", buf[at:at + 8])
        if size == 0:
            size = end - at
        out.append((typ, at, 8, size))
        at += size
    return out


def mp4_find(buf, path, start=0, end=None):
    """Offset of the box at path (e.g. [b"moov", b"trak", b"mdia"]), or None."""
    end = len(buf) if end is None else end
    for typ, at, h, size in mp4_boxes(buf, start, end):
        if typ == path[0]:
            if len(path) == 1:
                return at
            return mp4_find(buf, path[1:], at + h, at + size)
    return None


def mp4_faststart(buf):
    """The same file with its moov moved before the mdat (chunk offsets shifted), as qt-faststart does."""
    top = mp4_boxes(buf, 0, len(buf))
    moov = [b for b in top if b[0] == b"moov"][0]
    moov_bytes = bytearray(buf[moov[1]:moov[1] + moov[3]])
    shift = len(moov_bytes)
    stco = mp4_find(moov_bytes, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stco"])
    n = struct.unpack(">I", moov_bytes[stco + 12:stco + 16])[0]
    for i in range(n):
        p = stco + 16 + 4 * i
        struct.pack_into(">I", moov_bytes, p, struct.unpack(">I", moov_bytes[p:p + 4])[0] + shift)
    out = bytearray()
    for typ, at, h, size in top:
        if typ == b"moov":
            continue
        if typ == b"mdat":
            out += moov_bytes
        out += buf[at:at + size]
    return out


def mp4_cases(fixtures):
    src = "mp4/aac-16000-1ch.3gp"
    if not os.path.exists(os.path.join(fixtures, src)):
        # generate.sh runs this script once, after its MP4 section has made the sources.
        raise SystemExit("make_malformed.py: %s missing (run generate.sh's MP4 section first)" % src)
    orig = C.read(os.path.join(fixtures, src))
    desc = src + " (moov moved before mdat, chunk offsets shifted)"
    emit("mp4-moov-after-mdat.3gp", orig, src,
         "the movie box follows the media data (ffmpeg's default layout), parsed as a pure stream with default options",
         "mdat @%d before moov @%d" % (mp4_find(orig, [b"mdat"]), mp4_find(orig, [b"moov"])))
    base = mp4_faststart(orig)
    moov = mp4_find(base, [b"moov"])
    trak = mp4_find(base, [b"moov", b"trak"])
    stsz = mp4_find(base, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsz"])
    stco = mp4_find(base, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stco"])
    udta = mp4_find(base, [b"moov", b"udta"])
    emit("mp4-trunc-in-moov.3gp", base[:moov + 300], desc, "file truncated 300 bytes into the movie box",
         "moov @%d" % moov)
    b = bytearray(base)
    moov_size = struct.unpack(">I", b[moov:moov + 4])[0]
    struct.pack_into(">I", b, trak, moov_size)
    emit("mp4-trak-past-moov.3gp", b, desc, "trak size set to the whole moov size: the track box ends past its parent",
         "trak size field @%d" % trak)
    b = bytearray(base)
    struct.pack_into(">I", b, trak, 0)
    emit("mp4-trak-size-0.3gp", b, desc,
         "trak size 0 inside moov: runs to the end of its parent (it swallows the udta after it)",
         "trak size field @%d" % trak)
    b = bytearray(base)
    mdat = mp4_find(base, [b"mdat"])
    struct.pack_into(">I", b, mdat, 7)
    emit("mp4-mdat-size-7.3gp", b, desc, "mdat size 7 (smaller than a box header)", "mdat size field @%d" % mdat)
    b = bytearray(base)
    struct.pack_into(">I", b, stsz + 16, 100000)
    emit("mp4-stsz-count-huge.3gp", b, desc,
         "stsz sample_count 100000 with a size table of 17 entries (the box holds 17)",
         "stsz sample_count @%d" % (stsz + 16))
    b = bytearray(base)
    struct.pack_into(">II", b, stsz + 12, 200, 0xFFFFFFFF)
    emit("mp4-stsz-constant-count-4g.3gp", b, desc,
         "stsz constant sample_size 200 with sample_count 0xFFFFFFFF (nothing to allocate from, above maxPacketTableEntries)",
         "stsz sample_size/sample_count @%d" % (stsz + 12))
    b = bytearray(base)
    struct.pack_into(">I", b, stco + 16, len(base) + 1000)
    emit("mp4-chunk-offset-past-end.3gp", b, desc,
         "the only chunk offset points 1000 bytes past the end of the file: no sample is ever reached",
         "stco entry 0 @%d" % (stco + 16))
    # Recursion bomb: 400 nested empty trak boxes (no tkhd) before the real track.
    depth = 400
    nest = b""
    for _ in range(depth):
        nest = struct.pack(">I4s", 8 + len(nest), b"trak") + nest
    b = bytearray(base[:trak]) + nest + base[trak:]
    struct.pack_into(">I", b, moov, moov_size + len(nest))
    n = struct.unpack(">I", b[stco + len(nest) + 12:stco + len(nest) + 16])[0]
    for i in range(n):
        q = stco + len(nest) + 16 + 4 * i
        struct.pack_into(">I", b, q, struct.unpack(">I", b[q:q + 4])[0] + len(nest))
    emit("mp4-nested-trak-bomb.3gp", b, desc,
         "%d trak boxes nested in each other (no tkhd) inserted before the real track; chunk offsets shifted" % depth,
         "moov child @%d" % trak)
    # Fragmented: the first fragment of the ffmpeg frag_keyframe+empty_moov fixture, trun count made huge.
    fsrc = "mp4/aac-44100-2ch-frag.mp4"
    frag = C.read(os.path.join(fixtures, fsrc))
    top = mp4_boxes(frag, 0, len(frag))
    keep = []
    for box in top:
        keep.append(box)
        if box[0] == b"mdat":
            break
    f = bytearray(b"".join(frag[at:at + size] for _, at, _, size in keep))
    # Keep 256 bytes of the fragment's media data (the defect stops the parse at the moof anyway).
    mdat = mp4_find(f, [b"mdat"])
    f = f[:mdat + 8 + 256]
    struct.pack_into(">I", f, mdat, 8 + 256)
    moof = mp4_find(f, [b"moof"])
    trun = mp4_find(f, [b"moof", b"traf", b"trun"])
    g = bytearray(f)
    struct.pack_into(">I", g, trun + 12, 0x10000000)
    emit("mp4-trun-count-huge.mp4", g, fsrc + " (first fragment, 256 bytes of its mdat)",
         "trun sample_count 0x10000000 with per-sample sizes: the box holds far fewer",
         "trun sample_count @%d (moof @%d)" % (trun + 12, moof))


# ---------------------------------------------------------------------- unknown

def unknown_cases():
    emit("unknown-empty.bin", b"", "(none)", "empty file (0 bytes)", "no magic at all")
    rng = random.Random(20240506)
    emit("unknown-random.bin", bytes(rng.getrandbits(8) for _ in range(4096)), "(none)",
         "4096 pseudo-random bytes (Python random.Random(20240506))", "no known magic")
    text = ("This is a plain text file, not audio.\n"
            "RIFF WAVE FORM AIFF caff .snd appear here only as words.\n") * 8
    emit("unknown-text.txt", text.encode("ascii"), "(none)", "ASCII text containing format names but no magic at offset 0", "no known magic")


def main():
    global OUT
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--extra", action="append", default=[],
                    help="FILE|DERIVEDFROM|DEFECT|POINT for a file already placed in --out")
    a = ap.parse_args()
    OUT = a.out
    os.makedirs(OUT, exist_ok=True)
    wav_cases(a.fixtures)
    rf64_cases(a.fixtures)
    aiff_cases(a.fixtures)
    aifc_cases(a.fixtures)
    caf_cases(a.fixtures)
    au_cases(a.fixtures)
    mpeg_cases(a.fixtures)
    adts_cases(a.fixtures)
    mp4_cases(a.fixtures)
    unknown_cases()
    for spec in a.extra:
        f, src, defect, point = spec.split("|")
        if not os.path.exists(os.path.join(OUT, f)):
            raise SystemExit("extra file missing: " + f)
        ENTRIES.append({"file": f, "derivedFrom": src, "defect": defect, "structuralPoint": point})
    for e in ENTRIES:
        size = os.path.getsize(os.path.join(OUT, e["file"]))
        if size > 8192:
            raise SystemExit("malformed file too large: %s (%d bytes)" % (e["file"], size))
    manifest.merge(OUT, ENTRIES)


if __name__ == "__main__":
    main()
