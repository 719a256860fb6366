#!/usr/bin/env python3
"""Tag MP3 fixtures for the metadata readers with mutagen (Debian's python3-mutagen).

  id3 FILE VERSION COVER   write an ID3v2 tag (VERSION 3 or 4) with text frames in several
                           encodings, TXXX, COMM, USLT, PRIV, APIC (COVER, front cover) and
                           three chapters (CHAP with TIT2 sub-frames) under a CTOC
  ape FILE COVER           append an APEv2 tag (header + items + footer; mutagen places it
                           before an existing ID3v1 tag) with text items and a binary
                           "Cover Art (Front)" item (file name, NUL, COVER's bytes)

The values written are the expectations of Tests/AudioStreamParsingTests/Metadata/
TagFixtureTests.swift; change both together.
"""
import sys

from mutagen.apev2 import APEv2, APEValue, BINARY
from mutagen.id3 import (
    APIC, CHAP, COMM, CTOC, CTOCFlags, ID3, PRIV, TALB, TCON, TDRC, TIT2, TPE1, TRCK, TXXX, USLT,
    Encoding,
)


def write_id3(path, version, cover):
    tag = ID3()
    tag.add(TIT2(encoding=Encoding.UTF16, text=["Mutagen Tïtle"]))
    tag.add(TPE1(encoding=Encoding.UTF8, text=["First Ärtist", "Second Artist"]))
    tag.add(TALB(encoding=Encoding.UTF16BE, text=["Mutagen Album"]))
    tag.add(TRCK(encoding=Encoding.LATIN1, text=["2/10"]))
    tag.add(TDRC(encoding=Encoding.LATIN1, text=["2024-05-06"]))
    tag.add(TCON(encoding=Encoding.LATIN1, text=["13" if version == 4 else "(13)"]))
    tag.add(TXXX(encoding=Encoding.UTF8, desc="MOOD", text=["calm"]))
    tag.add(COMM(encoding=Encoding.UTF16, lang="eng", desc="", text=["Mutagen comment"]))
    tag.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="", text="La la la\nLa la"))
    tag.add(PRIV(owner="org.example.fixture", data=bytes([0, 1, 2, 0xFF, 0xFE])))
    with open(cover, "rb") as f:
        tag.add(APIC(encoding=Encoding.LATIN1, mime="image/png", type=3, desc="Front", data=f.read()))
    tag.add(CTOC(element_id="toc", flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
                 child_element_ids=["ch0", "ch1", "ch2"],
                 sub_frames=[TIT2(encoding=Encoding.LATIN1, text=["Contents"])]))
    for i, (start, end, title) in enumerate([(0, 150, "Intro"), (150, 300, "Middle"), (300, 500, "End")]):
        tag.add(CHAP(element_id="ch%d" % i, start_time=start, end_time=end, start_offset=0xFFFFFFFF,
                     end_offset=0xFFFFFFFF, sub_frames=[TIT2(encoding=Encoding.UTF8, text=[title])]))
    tag.save(path, v2_version=version, v1=0, padding=lambda info: 64)


def write_ape(path, cover):
    tag = APEv2()
    tag["Title"] = "APE Tïtle"
    tag["Artist"] = "APE Artist"
    tag["Album"] = "APE Album"
    tag["Year"] = "2005"
    tag["Track"] = "6"
    tag["Genre"] = "Jazz"
    tag["Comment"] = "APE comment"
    with open(cover, "rb") as f:
        tag["Cover Art (Front)"] = APEValue(b"cover.png\x00" + f.read(), BINARY)
    tag.save(path)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "id3":
        write_id3(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "ape":
        write_ape(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
