#!/usr/bin/env python3
"""Transport stream fixtures that ffmpeg cannot write, derived from ffmpeg's own TS files.

  ts_fixtures.py id3 IN.ts OUT.ts
      Adds an ID3 timed metadata stream (HLS "Timed Metadata for HTTP Live Streaming"): the PMT gets a
      stream_type 0x15 entry on PID 0x0102 with a metadata_descriptor (0x26: application format 0xFFFF
      'ID3 ', format 0xFF 'ID3 ', as ffmpeg writes for timed_id3), its CRC_32 recomputed (ISO/IEC 13818-1 Annex A);
      two PES packets (stream_id 0xBD, private_stream_1, with a PTS) each carrying one ID3v2.4 tag
      (TIT2 "TS Title 1"/"TS Title 2", TPE1 "TS Artist") are inserted as new transport packets: the
      first after the first audio packet, the second after the 20th transport packet.
      ffmpeg 5.1 can mux a timed_id3 stream only from an input that has one (none of Debian's tools
      writes one), so the stream is added here, by the specification.

  ts_fixtures.py malformed IN.ts DIR
      Writes DIR/ts-*.ts (rows merged into DIR/manifest.json): truncated inside a packet, a dropped
      audio packet (continuity_counter gap), a PMT with a damaged CRC_32 (a second, good PMT follows in
      the stream, as muxers repeat it), garbage between packets, garbage only.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest  # noqa: E402

P = 188


def crc32_mpeg(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc


def packets(data):
    assert len(data) % P == 0 and all(data[i] == 0x47 for i in range(0, len(data), P)), "not a 188-byte TS"
    return [bytearray(data[i:i + P]) for i in range(0, len(data), P)]


def pid(pkt):
    return (pkt[1] & 0x1F) << 8 | pkt[2]


def pmt_pid(pkts):
    for p in pkts:
        if pid(p) == 0 and p[1] & 0x40:
            s = 5 + p[4]
            return (p[s + 10] & 0x1F) << 8 | p[s + 11]
    raise SystemExit("no PAT")


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def id3_tag(title, artist):
    def text_frame(fid, text):
        body = b"\x03" + text.encode("utf-8")
        return fid.encode() + syncsafe(len(body)) + b"\x00\x00" + body
    frames = text_frame("TIT2", title) + text_frame("TPE1", artist)
    return b"ID3\x04\x00\x00" + syncsafe(len(frames)) + frames


def pts_bytes(pts):
    return bytes([0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF, 0x01 | ((pts >> 14) & 0xFE),
                  (pts >> 7) & 0xFF, 0x01 | ((pts << 1) & 0xFE)])


def pes_packet(tag, pts):
    body = b"\x84\x80\x05" + pts_bytes(pts) + tag   # '10', data_alignment; PTS only; 5 header bytes
    return b"\x00\x00\x01\xBD" + len(body).to_bytes(2, "big") + body


def ts_packets(payload, the_pid, cc):
    """Transport packets carrying one PES packet; the last one padded with an adaptation field."""
    out = []
    first = True
    while payload:
        room = P - 4
        chunk = payload[:room]
        payload = payload[len(chunk):]
        hdr = bytes([0x47, (0x40 if first else 0) | the_pid >> 8, the_pid & 0xFF])
        if len(chunk) < room:
            stuff = room - len(chunk)
            af = bytes([stuff - 1]) + (b"\x00" + b"\xFF" * (stuff - 2) if stuff > 1 else b"")
            out.append(hdr + bytes([0x30 | cc]) + af + chunk)
        else:
            out.append(hdr + bytes([0x10 | cc]) + chunk)
        cc = (cc + 1) & 0x0F
        first = False
    return out, cc


def rewrite_pmt(p, id3_pid):
    """Appends the ID3 stream to the one-packet PMT section in p, recomputing section_length and CRC_32."""
    s = 5 + p[4]                      # payload start + pointer_field
    length = (p[s + 1] & 0x0F) << 8 | p[s + 2]
    section = bytes(p[s:s + 3 + length - 4])   # without the CRC
    # metadata_descriptor (§2.6.60): metadata_application_format 0xFFFF + 'ID3 ', metadata_format 0xFF +
    # 'ID3 ', metadata_service_id 0, decoder_config_flags 0, DSM-CC_flag 0, reserved
    body = b"\xFF\xFFID3 \xFFID3 \x00\x0F"
    desc = bytes([0x26, len(body)]) + body
    entry = bytes([0x15, 0xE0 | id3_pid >> 8, id3_pid & 0xFF, 0xF0 | len(desc) >> 8, len(desc) & 0xFF]) + desc
    section = bytearray(section + entry)
    new_length = len(section) - 3 + 4
    section[1] = (section[1] & 0xF0) | new_length >> 8
    section[2] = new_length & 0xFF
    section += crc32_mpeg(section).to_bytes(4, "big")
    assert s + len(section) <= P
    p[s:s + len(section)] = section
    p[s + len(section):] = b"\xFF" * (P - s - len(section))


def add_id3(src, dst):
    pkts = packets(open(src, "rb").read())
    pmt = pmt_pid(pkts)
    for p in pkts:
        if pid(p) == pmt:
            rewrite_pmt(p, 0x0102)
    cc = 0
    audio_seen = False
    out = []
    first_done = second_done = False
    for i, p in enumerate(pkts):
        out.append(p)
        if pid(p) == 0x0100:
            audio_seen = True
        if audio_seen and not first_done:
            new, cc = ts_packets(pes_packet(id3_tag("TS Title 1", "TS Artist"), 126000), 0x0102, cc)
            out += new
            first_done = True
        elif i == 20 and not second_done:
            new, cc = ts_packets(pes_packet(id3_tag("TS Title 2", "TS Artist"), 150000), 0x0102, cc)
            out += new
            second_done = True
    open(dst, "wb").write(b"".join(out))


def malformed(src, out_dir):
    data = open(src, "rb").read()
    pkts = packets(data)
    pmt = pmt_pid(pkts)
    audio = [i for i, p in enumerate(pkts) if pid(p) == 0x0100]
    rows = []

    def write(name, blob, defect, point):
        open(os.path.join(out_dir, name), "wb").write(blob)
        rows.append({"file": name, "defect": defect, "derivedFrom": os.path.relpath(src), "structuralPoint": point})

    cut = len(data) - 100
    write("ts-truncated.ts", data[:cut], "cut 100 bytes before the end, inside the last transport packet",
          "@%d" % cut)
    drop = audio[len(audio) // 2]
    write("ts-cc-gap.ts", b"".join(p for i, p in enumerate(pkts) if i != drop),
          "audio transport packet %d dropped: continuity_counter gap, the frame it held lost" % drop,
          "packet %d @%d" % (drop, drop * P))
    bad = bytearray(data)
    first_pmt = next(i for i, p in enumerate(pkts) if pid(p) == pmt)
    s = first_pmt * P + 5 + pkts[first_pmt][4]
    length = (bad[s + 1] & 0x0F) << 8 | bad[s + 2]
    bad[s + 3 + length - 1] ^= 0xFF
    write("ts-pmt-bad-crc.ts", bytes(bad), "the first PMT's CRC_32 damaged (its last byte inverted); later PMTs good",
          "PMT CRC_32 @%d" % (s + 3 + length - 4))
    at = audio[3] * P
    junk = bytes((i * 37 + 11) & 0xFF for i in range(500)).replace(b"\x47", b"\x46")
    write("ts-garbage-between.ts", data[:at] + junk + data[at:], "500 bytes of garbage (no 0x47) before audio packet %d"
          % audio[3], "@%d" % at)
    write("ts-garbage-only.ts", bytes([0x47]) + junk * 2, "a sync byte then 1000 bytes of garbage", "@0")
    manifest.merge(out_dir, rows)


if __name__ == "__main__":
    if sys.argv[1] == "id3":
        add_id3(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "malformed":
        malformed(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
