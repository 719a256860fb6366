"""Tiny, dependency-free helpers to read and rewrite chunk-based audio files.

Used by derive.py (derived fixtures) and make_malformed.py (malformed inputs).
Everything here works on whole files held in memory (fixtures are small).

Layouts handled:
  * RIFF / RIFX / RF64 / BW64 ("WAVE"): 12-byte header, chunks = id(4) size(4) data pad-to-even.
    RIFF, RF64 and BW64 sizes are little-endian, RIFX big-endian.
  * FORM ("AIFF"/"AIFC"): like RIFF, sizes big-endian.
  * CAF ("caff"): 8-byte header, chunks = type(4) size(int64 BE) data, no padding.
  * NeXT/Sun .au: 24-byte big-endian header + annotation + data.
"""

import struct


class Chunk:
    """One chunk: id, header offset, payload offset, declared size, payload bytes."""

    def __init__(self, cid, offset, data_offset, size, data):
        self.id = cid
        self.offset = offset            # offset of the chunk header in the file
        self.data_offset = data_offset  # offset of the payload
        self.size = size                # size field as written
        self.data = data                # payload as present in the file (may be short)

    def __repr__(self):
        return "Chunk(%r @%d size=%d)" % (self.id, self.offset, self.size)


# --------------------------------------------------------------------- RIFF / FORM

def riff_endian(buf):
    magic = buf[:4]
    if magic in (b"RIFF", b"RF64", b"BW64"):
        return "<"
    if magic in (b"RIFX", b"FORM"):
        return ">"
    raise ValueError("not a RIFF/RIFX/RF64/BW64/FORM file: %r" % magic)


def riff_chunks(buf):
    """List the top-level chunks after the 12-byte header (honours pad bytes)."""
    e = riff_endian(buf)
    out = []
    pos = 12
    while pos + 8 <= len(buf):
        cid = bytes(buf[pos:pos + 4])
        (size,) = struct.unpack(e + "I", buf[pos + 4:pos + 8])
        data = bytes(buf[pos + 8:pos + 8 + size])
        out.append(Chunk(cid, pos, pos + 8, size, data))
        pos += 8 + size + (size & 1)
    return out


def riff_find(buf, cid):
    for c in riff_chunks(buf):
        if c.id == cid:
            return c
    raise KeyError("chunk %r not found" % cid)


def riff_build(magic, form, chunks, endian, riff_size=None):
    """Serialise (id, payload) pairs into a RIFF/FORM file, with pad bytes."""
    body = bytearray(form)
    for cid, payload in chunks:
        body += cid + struct.pack(endian + "I", len(payload)) + payload
        if len(payload) & 1:
            body += b"\x00"
    size = len(body) if riff_size is None else riff_size
    return bytes(magic + struct.pack(endian + "I", size) + body)


def riff_rebuild(buf, edit):
    """Parse buf into (id, payload) pairs, let edit() change the list, serialise again."""
    e = riff_endian(buf)
    pairs = [(c.id, c.data) for c in riff_chunks(buf)]
    pairs = edit(pairs)
    return riff_build(bytes(buf[:4]), bytes(buf[8:12]), pairs, e)


def riff_set_size_field(buf, cid, value, which=0):
    """Overwrite the size field of the which-th chunk `cid` (in place on a bytearray)."""
    e = riff_endian(buf)
    hits = [c for c in riff_chunks(buf) if c.id == cid]
    c = hits[which]
    buf[c.offset + 4:c.offset + 8] = struct.pack(e + "I", value & 0xFFFFFFFF)
    return c


def set_riff_size(buf, value):
    e = riff_endian(buf)
    buf[4:8] = struct.pack(e + "I", value & 0xFFFFFFFF)


# --------------------------------------------------------------------------- CAF

def caf_chunks(buf):
    out = []
    pos = 8
    while pos + 12 <= len(buf):
        cid = bytes(buf[pos:pos + 4])
        (size,) = struct.unpack(">q", buf[pos + 4:pos + 12])
        end = len(buf) if size < 0 else pos + 12 + size
        out.append(Chunk(cid, pos, pos + 12, size, bytes(buf[pos + 12:end])))
        if size < 0:
            break
        pos += 12 + size
    return out


def caf_find(buf, cid):
    for c in caf_chunks(buf):
        if c.id == cid:
            return c
    raise KeyError("chunk %r not found" % cid)


def caf_set_size_field(buf, cid, value):
    c = caf_find(buf, cid)
    buf[c.offset + 4:c.offset + 12] = struct.pack(">Q", value & 0xFFFFFFFFFFFFFFFF)
    return c


def caf_build(chunks, header=b"caff\x00\x01\x00\x00"):
    out = bytearray(header)
    for cid, payload in chunks:
        out += cid + struct.pack(">q", len(payload)) + payload
    return bytes(out)


# ---------------------------------------------------------------------------- AU

def au_header(buf):
    magic, off, size, enc, rate, ch = struct.unpack(">4sIIIII", buf[:24])
    return {"magic": magic, "offset": off, "size": size, "encoding": enc,
            "rate": rate, "channels": ch}


# -------------------------------------------------------------- AIFF helpers

def ieee_extended(value):
    """Encode a float as an 80-bit IEEE 754 extended (AIFF sample rate)."""
    import math
    if value == 0:
        return b"\x00" * 10
    if math.isnan(value):
        return b"\x7f\xff\xc0\x00\x00\x00\x00\x00\x00\x00"
    if math.isinf(value):
        return (b"\xff\xff" if value < 0 else b"\x7f\xff") + b"\x80" + b"\x00" * 7
    sign = 0x8000 if value < 0 else 0
    value = abs(value)
    mant, exp = math.frexp(value)          # value = mant * 2**exp, 0.5 <= mant < 1
    exp += 16382
    hi = int(mant * (1 << 64)) & 0xFFFFFFFFFFFFFFFF
    return struct.pack(">HQ", sign | exp, hi)


def read(path):
    with open(path, "rb") as f:
        return bytearray(f.read())


def write(path, data):
    with open(path, "wb") as f:
        f.write(bytes(data))
