#!/usr/bin/env python3
"""Write tags with mutagen (Debian's python3-mutagen; run it with the Python that has it).

  apev2 FILE KEY=VALUE ...   append an APEv2 tag (header + items + footer; before an
                             existing ID3v1 tag, as mutagen places it)
"""
import sys

from mutagen.apev2 import APEv2


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "apev2":
        raise SystemExit(__doc__)
    tag = APEv2()
    for item in sys.argv[3:]:
        key, value = item.split("=", 1)
        tag[key] = value
    tag.save(sys.argv[2])


if __name__ == "__main__":
    main()
