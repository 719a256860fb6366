#!/usr/bin/env python3
"""Copies a raw LOAS file from its second LOAS frame on, as a capture that starts mid-stream.

ISO/IEC 14496-3 §1.7.2: a LOAS frame is a 3-byte AudioSyncStream header (syncword 0x2B7 in 11 bits,
audioMuxLengthBytes in 13) followed by that many bytes. Usage: loas_cut_in.py IN OUT
"""
import sys

data = open(sys.argv[1], 'rb').read()
if len(data) < 3 or data[0] != 0x56 or data[1] & 0xE0 != 0xE0:
    sys.exit('loas_cut_in.py: %s does not start with a LOAS frame' % sys.argv[1])
first = 3 + ((data[1] & 0x1F) << 8 | data[2])
open(sys.argv[2], 'wb').write(data[first:])
