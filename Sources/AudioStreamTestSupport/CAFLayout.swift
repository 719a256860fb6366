/// The top-level chunk layout of a CAF file (Apple Core Audio Format Specification 1.0: an 8-byte file
/// header `'caff'` version flags, then chunks of `mChunkType` (4 bytes) and `mChunkSize` (Int64,
/// big-endian) followed by the body, with no padding; a `data` chunk of size −1 runs to the end).
package struct CAFLayout {
    /// One top-level chunk.
    package struct Chunk: Equatable {
        /// The four-character type, e.g. `pakt`.
        package var type: String
        /// The offset of the chunk header.
        package var offset: Int
        /// The declared body size (−1 for a data chunk that runs to the end).
        package var size: Int64
        /// The offset after the chunk (header + body), clamped to the file.
        package var end: Int
    }

    package var chunks: [Chunk]

    /// Reads the chunk list; nil when the bytes are not a CAF file or a size is out of range.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8, Array(bytes[0..<4]) == Array("caff".utf8) else { return nil }
        var chunks: [Chunk] = []
        var at = 8
        while at + 12 <= bytes.count {
            let type = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let raw = bytes[(at + 4)..<(at + 12)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let size = Int64(bitPattern: raw)
            let bodyEnd: Int
            if size == -1 {
                bodyEnd = bytes.count
            } else {
                guard size >= 0, size <= Int64(bytes.count) else { return nil }
                bodyEnd = min(bytes.count, at + 12 + Int(size))
            }
            chunks.append(Chunk(type: type, offset: at, size: size, end: bodyEnd))
            at = bodyEnd
        }
        self.chunks = chunks
    }

    /// The first chunk of `type`.
    package func first(_ type: String) -> Chunk? { chunks.first { $0.type == type } }

    /// True when a `pakt` chunk follows the `data` chunk.
    package var packetTableFollowsData: Bool {
        guard let data = first("data"), let pakt = first("pakt") else { return false }
        return pakt.offset > data.offset
    }

    /// The file with its `pakt` chunk moved to just before the `data` chunk, and by how many bytes the
    /// data moved (the `pakt` chunk's length); nil when there is no `pakt` after the `data`.
    package static func movingPacketTableBeforeData(_ bytes: [UInt8]) -> (bytes: [UInt8], shift: Int64)? {
        guard let layout = CAFLayout(bytes), layout.packetTableFollowsData, let data = layout.first("data"),
            let pakt = layout.first("pakt")
        else { return nil }
        let table = Array(bytes[pakt.offset..<pakt.end])
        var out = Array(bytes[0..<data.offset]) + table + Array(bytes[data.offset..<pakt.offset])
        out += bytes[pakt.end...]
        return (out, Int64(table.count))
    }
}
