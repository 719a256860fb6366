"""What the Huffman table generators share (aac_huffman_tables.py, sbr_huffman_tables.py): reading a
transcription file of C-style arrays (`name[count] = { v, v, ... }`), checking that a codebook is a
complete prefix code, and writing it as a Swift `[UInt32]` of `length << 24 | codeword`.
"""
import os
import re
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))


def read_arrays(filename):
    """The arrays of the transcription `filename` (beside this module), by name; each must hold the
    count its declaration states."""
    text = open(os.path.join(HERE, filename)).read()
    arrays = {}
    for m in re.finditer(r"(\w+)\[(\d+)\] = \{([^}]*)\}", text):
        values = [int(v, 0) for v in m.group(3).replace("\n", " ").split(",") if v.strip()]
        assert len(values) == int(m.group(2)), m.group(1)
        arrays[m.group(1)] = values
    return arrays


def check_prefix_code(name, codes, bits):
    """Fails unless every codeword fits its length, none is a prefix of another and the Kraft sum is
    exactly 1 (a complete prefix code)."""
    words = sorted(format(c, f"0{l}b") for c, l in zip(codes, bits))
    assert all(c < (1 << l) for c, l in zip(codes, bits)), name
    assert all(not words[i + 1].startswith(words[i]) for i in range(len(words) - 1)), name
    assert sum(Fraction(1, 2**l) for l in bits) == 1, name


def write_table(out, name, comment, codes, bits):
    """Writes the codebook as `static let name: [UInt32]`, eight entries a line, after its doc comment."""
    out.write(f"    /// {comment}\n")
    out.write(f"    static let {name}: [UInt32] = [\n")
    packed = [f"0x{(l << 24) | c:08X}" for c, l in zip(codes, bits)]
    for i in range(0, len(packed), 8):
        out.write("        " + ", ".join(packed[i:i + 8]) + ",\n")
    out.write("    ]\n")
