#!/usr/bin/env python3
"""Derives the malformed Ogg inputs of Fixtures/malformed/ogg from real Ogg fixtures.

Usage: ogg_malformed.py OGG_DIR OUT_DIR

Merges one manifest row per file into OUT_DIR/../manifest.json (tools/manifest.py; file names
relative to malformed/). The expected outcomes are in malformed/expected.json; the packet counts
there follow from the page walk printed by `ogg_malformed.py --explain OGG_DIR`
(an independent walker: RFC 3533 lacing, no CRC trust).
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest  # noqa: E402


def crc_table():
    t = []
    for i in range(256):
        r = i << 24
        for _ in range(8):
            r = ((r << 1) ^ 0x04C11DB7) if r & 0x80000000 else (r << 1)
            r &= 0xFFFFFFFF
        t.append(r)
    return t


TABLE = crc_table()


def crc(data):
    c = 0
    for b in data:
        c = ((c << 8) & 0xFFFFFFFF) ^ TABLE[((c >> 24) ^ b) & 0xFF]
    return c


def pages(data):
    """Splits a well-formed Ogg file into pages: dicts with header fields, lacing and body."""
    out, p = [], 0
    while p < len(data):
        assert data[p:p + 4] == b"OggS", p
        ver, typ, gran, serial, seq, _crc, nseg = struct.unpack_from("<BBqIIIB", data, p + 4)
        lacing = list(data[p + 27:p + 27 + nseg])
        body = data[p + 27 + nseg:p + 27 + nseg + sum(lacing)]
        out.append(dict(offset=p, version=ver, type=typ, granule=gran, serial=serial, seq=seq,
                        lacing=lacing, body=bytes(body)))
        p += 27 + nseg + sum(lacing)
    return out


def build(page, fix_crc=True):
    hdr = bytearray(b"OggS" + struct.pack("<BBqIIIB", page["version"], page["type"], page["granule"],
                                          page["serial"], page["seq"], 0, len(page["lacing"])))
    hdr += bytes(page["lacing"])
    raw = bytes(hdr) + page["body"]
    if fix_crc:
        c = crc(raw)
        raw = raw[:22] + struct.pack("<I", c) + raw[26:]
    return raw


def packets_per_page(pg):
    """(packets that end on the page, whether the page's last packet continues)."""
    ends = sum(1 for v in pg["lacing"] if v < 255)
    return ends, bool(pg["lacing"]) and pg["lacing"][-1] == 255


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    vorbis = open(os.path.join(src, "vorbis-48000-6ch-oggenc.ogg"), "rb").read()
    opus = open(os.path.join(src, "opus-16000-1ch-16k-opusenc.opus"), "rb").read()
    vp = pages(vorbis)
    op = pages(opus)
    rows = []

    def write(name, data, defect, derived, point):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        rows.append(dict(file="ogg/" + name, defect=defect, derivedFrom=derived, structuralPoint=point))

    # Bad CRC: one body byte of the fourth page flipped.
    k = 3
    bad = bytearray(b"".join(build(p) for p in vp))
    bad[vp[k]["offset"] + 27 + len(vp[k]["lacing"]) + 10] ^= 0xFF
    write("ogg-bad-crc.ogg", bytes(bad),
          "page %d: one body byte flipped, so its CRC-32 does not match: the page is dropped with a "
          "diagnostic, resync at the next page; packets ending on it and the one continuing from it are lost" % k,
          "ogg/vorbis-48000-6ch-oggenc.ogg", "page %d @%d" % (k, vp[k]["offset"]))

    # Bad version: stream_structure_version 1 on page 3 (valid CRC): the page is not Ogg version 0.
    mod = [dict(p) for p in vp]
    mod[k]["version"] = 1
    write("ogg-bad-version.ogg", b"".join(build(p) for p in mod),
          "page %d has stream_structure_version 1 (CRC valid): the page is skipped with a diagnostic" % k,
          "ogg/vorbis-48000-6ch-oggenc.ogg", "page %d @%d" % (k, vp[k]["offset"]))

    # Truncated: the file ends in the middle of the last page's body.
    whole = b"".join(build(p) for p in vp)
    last = vp[-1]
    cut = last["offset"] + 27 + len(last["lacing"]) + len(last["body"]) // 2
    write("ogg-truncated-page.ogg", whole[:cut],
          "the file ends in the middle of the last page's body: its packets are not delivered, a diagnostic "
          "names the truncated page", "ogg/vorbis-48000-6ch-oggenc.ogg", "last page @%d, cut at %d" % (last["offset"], cut))

    # Huge lacing: page 3's lacing values all raised to 255 (claims far more body than there is).
    hl = bytearray(whole)
    base = vp[k]["offset"] + 27
    for i in range(len(vp[k]["lacing"])):
        hl[base + i] = 255
    write("ogg-huge-lacing.ogg", bytes(hl),
          "page %d: every lacing value set to 255, so the page claims %d body bytes and runs into the following "
          "pages: CRC mismatch, resync at the next page" % (k, 255 * len(vp[k]["lacing"])),
          "ogg/vorbis-48000-6ch-oggenc.ogg", "page %d segment table @%d" % (k, base))

    # 255 lacing values of 255: a valid 65025-byte page whose packet continues on the next page.
    heads = [p for p in op if p["granule"] == 0]
    audio = [p for p in op if p["granule"] != 0]
    first_audio_packet = audio[0]["body"][:audio[0]["lacing"][0]]
    big = first_audio_packet + bytes(65025 + 100 - len(first_audio_packet))
    seq = heads[-1]["seq"] + 1
    serial = op[0]["serial"]
    p1 = dict(version=0, type=0, granule=-1, serial=serial, seq=seq, lacing=[255] * 255, body=big[:65025])
    p2 = dict(version=0, type=1, granule=0, serial=serial, seq=seq + 1, lacing=[100], body=big[65025:])
    rest = []
    for i, p in enumerate(audio):
        q = dict(p)
        q["seq"] = seq + 2 + i
        rest.append(q)
    write("ogg-255-lacing-255.opus", b"".join(build(p) for p in heads + [p1, p2] + rest),
          "a page with 255 lacing values of 255 (65025-byte body, granule -1): one 65125-byte packet continued "
          "on the next page (its TOC byte copied from the first audio packet, zero padded), then the original "
          "audio pages renumbered", "ogg/opus-16000-1ch-16k-opusenc.opus",
          "page %d @%d" % (len(heads), sum(len(build(p)) for p in heads)))

    # Missing BOS: the first page (BOS, identification header) removed.
    write("ogg-missing-bos.ogg", b"".join(build(p) for p in vp[1:]),
          "the beginning-of-stream page (Vorbis identification header) is missing: the logical stream cannot be "
          "identified", "ogg/vorbis-48000-6ch-oggenc.ogg", "page 0 removed")

    # Junk between pages: 700 random bytes plus a capture pattern with a wrong CRC.
    rnd = random.Random(3533)
    junk = bytes(rnd.randrange(256) for _ in range(700))
    fake = bytearray(build(vp[k]))
    fake[22] ^= 0x55
    pos = vp[k]["offset"]
    write("ogg-junk-between-pages.ogg", whole[:pos] + junk + bytes(fake[:40]) + whole[pos:],
          "700 random bytes (random.Random(3533)) and a 40-byte page start with a wrong CRC before page %d: "
          "skipped with a diagnostic, no packet lost" % k,
          "ogg/vorbis-48000-6ch-oggenc.ogg", "before page %d @%d" % (k, pos))

    manifest.merge(os.path.join(out, os.pardir), rows)

    # The walk behind the expected packet counts.
    for name, pg in (("vorbis-48000-6ch-oggenc.ogg", vp), ("opus-16000-1ch-16k-opusenc.opus", op)):
        print("ogg_malformed.py: %s pages:" % name, file=sys.stderr)
        for i, p in enumerate(pg):
            ends, cont = packets_per_page(p)
            print("  page %d @%d seq %d type %d granule %d: %d packets end, continues %s" %
                  (i, p["offset"], p["seq"], p["type"], p["granule"], ends, cont), file=sys.stderr)


if __name__ == "__main__":
    main()
