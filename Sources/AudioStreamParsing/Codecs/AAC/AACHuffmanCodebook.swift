/// A Huffman codebook of AAC (ISO/IEC 14496-3 Annex 4.A) as a binary decoding tree, read most
/// significant bit first.
///
/// ```
///  nodes[2n], nodes[2n + 1]   the children of node n for bit 0 and bit 1:
///                             > 0  the index of a child node
///                             < 0  a leaf: codebook index −(value + 1)
///                             = 0  no codeword (cannot happen in a complete code)
/// ```
///
/// Built once from the packed table (`length << 24 | codeword`, ``AACHuffmanTables``); the tables
/// are complete prefix codes, so every bit pattern of at most the longest length ends on a leaf.
/// Contract: ``decode(_:)`` returns `nil` (cursor moved) when the bits run out; it never traps.
struct AACHuffmanCodebook: Sendable {
    /// The tree, two slots per node; node 0 is the root.
    private let nodes: [Int32]

    /// Builds the tree of a packed table. A malformed table (a codeword a prefix of another)
    /// leaves the conflicting entry out; the generator checks that none is.
    init(_ packed: [UInt32]) {
        var nodes: [Int32] = [0, 0]
        for (index, entry) in packed.enumerated() {
            let length = Int(entry >> 24)
            let code = entry & 0x00FF_FFFF
            var node = 0
            for bit in stride(from: length - 1, through: 0, by: -1) {
                let slot = node * 2 + Int((code >> UInt32(bit)) & 1)
                if bit == 0 {
                    if nodes[slot] == 0 { nodes[slot] = -Int32(index + 1) }
                } else if nodes[slot] > 0 {
                    node = Int(nodes[slot])
                } else if nodes[slot] == 0 {
                    nodes[slot] = Int32(nodes.count / 2)
                    node = nodes.count / 2
                    nodes.append(contentsOf: [0, 0])
                } else {
                    break  // a leaf on the path: not a prefix code
                }
            }
        }
        self.nodes = nodes
    }

    /// The codebook index of the next codeword; `nil` when the bits run out or hit no codeword.
    func decode(_ reader: inout BitReader) -> Int? {
        var node = 0
        while true {
            guard let bit = reader.read(1) else { return nil }
            let next = nodes[node * 2 + Int(bit)]
            if next < 0 { return Int(-next) - 1 }
            if next == 0 { return nil }
            node = Int(next)
        }
    }

    /// Table 4.A.1: the scalefactor codebook (index − 60 is the difference).
    static let scalefactor = AACHuffmanCodebook(AACHuffmanTables.scalefactor)

    /// Tables 4.A.2–4.A.12: spectral codebooks 1…11 at positions 0…10.
    static let spectral: [AACHuffmanCodebook] = [
        AACHuffmanTables.spectral1, AACHuffmanTables.spectral2, AACHuffmanTables.spectral3,
        AACHuffmanTables.spectral4, AACHuffmanTables.spectral5, AACHuffmanTables.spectral6,
        AACHuffmanTables.spectral7, AACHuffmanTables.spectral8, AACHuffmanTables.spectral9,
        AACHuffmanTables.spectral10, AACHuffmanTables.spectral11,
    ].map(AACHuffmanCodebook.init)
}
