#!/usr/bin/env python3
"""Write iTunes-style MP4 tags with mutagen (Debian's python3-mutagen; run it with /usr/bin/python3).

  tag_mp4.py itunes FILE COVER.png ITUNSMPB
      ©nam ©ART aART ©alb ©day trkn disk ©gen ©wrt ©cmt cpil tmpo ©too cprt, covr (the PNG),
      freeform ----:com.apple.iTunes:iTunSMPB = ITUNSMPB and ----:org.example.fixtures:Mood = happy.
      mutagen writes udta/meta (full box, hdlr 'mdir'/'appl')/ilst and drops the 'free' padding
      it does not need; the values are what the tests expect (MP4MetadataTests.swift).
"""
import sys

from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm


def itunes(path, cover, smpb):
    f = MP4(path)
    if f.tags is None:
        f.add_tags()
    t = f.tags
    t["\xa9nam"] = ["MP4 Tïtle"]
    t["\xa9ART"] = ["MP4 Artist"]
    t["aART"] = ["MP4 Album Artist"]
    t["\xa9alb"] = ["MP4 Album"]
    t["\xa9day"] = ["2024-05-06"]
    t["trkn"] = [(3, 12)]
    t["disk"] = [(1, 2)]
    t["\xa9gen"] = ["Electronic"]
    t["\xa9wrt"] = ["MP4 Composer"]
    t["\xa9cmt"] = ["MP4 comment"]
    t["cpil"] = True
    t["tmpo"] = [120]
    t["\xa9too"] = ["Fixture Encoder 1.0"]
    t["cprt"] = ["2024 Fixtures"]
    with open(cover, "rb") as c:
        t["covr"] = [MP4Cover(c.read(), imageformat=MP4Cover.FORMAT_PNG)]
    t["----:com.apple.iTunes:iTunSMPB"] = [MP4FreeForm(smpb.encode("ascii"))]
    t["----:org.example.fixtures:Mood"] = [MP4FreeForm(b"happy")]
    f.save()


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "itunes":
        itunes(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
