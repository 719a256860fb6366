extension ID3v2Tag {
    /// The 10-byte tag header, or the 10-byte footer of a 2.4 tag (ID3v2.4.0 main structure §3.1,
    /// §3.4; the header is the same in 2.2 and 2.3).
    ///
    /// ```
    ///  offset  size  field
    ///  0       3     "ID3" (footer: "3DI")
    ///  3       1     major version: 2, 3 or 4
    ///  4       1     revision (never 0xFF)
    ///  5       1     flags   0x80 unsynchronisation (2.2/2.3: the whole tag; 2.4: every frame)
    ///                        0x40 2.2: compression (no scheme was ever defined: the tag is
    ///                             unreadable); 2.3/2.4: extended header follows
    ///                        0x20 experimental (2.3/2.4)
    ///                        0x10 footer present (2.4)
    ///  6       4     size: syncsafe (4 × 7 bits, each byte < 0x80), bytes after the header,
    ///                footer excluded
    /// ```
    struct Header: Hashable, Sendable {
        /// The header's (and footer's) length.
        static let byteCount = 10
        /// The largest size a syncsafe field can hold.
        static let maxSize = (1 << 28) - 1

        /// 2, 3 or 4.
        let majorVersion: UInt8
        let revision: UInt8
        let flags: UInt8
        /// Bytes after the header, footer excluded.
        let size: Int

        /// Tag-level unsynchronisation flag.
        var isUnsynchronised: Bool { flags & 0x80 != 0 }
        /// True for 2.2 and 2.3 with the unsynchronisation flag: frame boundaries are only known
        /// after reversing it over the whole tag.
        var unsynchronisesWholeTag: Bool { majorVersion < 4 && isUnsynchronised }
        /// 2.2 compression flag: the tag cannot be read (ID3v2 2.2 §3.1 "the ID3 decoder should just
        /// ignore the entire tag").
        var isCompressedVersion22: Bool { majorVersion == 2 && flags & 0x40 != 0 }
        /// An extended header follows the header (2.3, 2.4).
        var hasExtendedHeader: Bool { majorVersion >= 3 && flags & 0x40 != 0 }
        /// A footer follows the tag (2.4).
        var hasFooter: Bool { majorVersion == 4 && flags & 0x10 != 0 }
        /// The whole tag's length: header, `size` bytes, and the footer if any.
        var totalByteCount: Int { Self.byteCount + size + (hasFooter ? Self.byteCount : 0) }
        /// The length of a frame header: 6 in 2.2, 10 in 2.3 and 2.4.
        var frameHeaderByteCount: Int { majorVersion == 2 ? 6 : 10 }
        /// "ID3v2.3.0".
        var versionName: String { "ID3v2.\(majorVersion).\(revision)" }

        /// Decodes a header from the first 10 of `bytes`; `nil` when they are not one (wrong magic,
        /// major version outside 2...4, revision 0xFF, a size byte with its top bit set).
        static func decode<C: Collection>(_ bytes: C) -> Header? where C.Element == UInt8 {
            decode(bytes, magic: (0x49, 0x44, 0x33))
        }

        /// Decodes a 2.4 footer (`3DI`, same fields as the header).
        static func decodeFooter<C: Collection>(_ bytes: C) -> Header? where C.Element == UInt8 {
            guard let footer = decode(bytes, magic: (0x33, 0x44, 0x49)), footer.majorVersion == 4 else { return nil }
            return footer
        }

        private static func decode<C: Collection>(
            _ bytes: C, magic: (UInt8, UInt8, UInt8)
        ) -> Header? where C.Element == UInt8 {
            let b = Array(bytes.prefix(byteCount))
            guard b.count == byteCount, b[0] == magic.0, b[1] == magic.1, b[2] == magic.2,
                (2...4).contains(b[3]), b[4] != 0xFF, b[6..<10].allSatisfy({ $0 < 0x80 })
            else { return nil }
            return Header(majorVersion: b[3], revision: b[4], flags: b[5], size: syncsafe(b[6], b[7], b[8], b[9]))
        }

        /// What the bytes starting `offset` bytes after a position could be, given only the
        /// `available` bytes readable there (`peek` returns `nil` past them).
        static func recognise(available: Int, _ peek: (Int) -> UInt8?) -> Recognition {
            var bytes: [UInt8] = []
            for i in 0..<byteCount {
                guard let b = peek(i) else { break }
                bytes.append(b)
            }
            if bytes.count == byteCount { return decode(bytes).map { .header($0) } ?? .notATag }
            // A prefix: reject as soon as one readable byte cannot belong to a header.
            let magic: [UInt8] = [0x49, 0x44, 0x33]
            for (i, b) in bytes.enumerated() {
                switch i {
                case 0..<3: if b != magic[i] { return .notATag }
                case 3: if !(2...4).contains(b) { return .notATag }
                case 4: if b == 0xFF { return .notATag }
                case 6...: if b >= 0x80 { return .notATag }
                default: break
                }
            }
            return .needMoreData(atLeast: byteCount)
        }

        /// What the bytes starting `offset` bytes after the window's position could be: the one
        /// recogniser for a tag header in a stream (ID3v2 prefix, MPEG frame boundaries, ADTS frame
        /// boundaries and detection). A prefix is rejected as soon as one readable byte rules it
        /// out; `.needMoreData(atLeast:)` counts from the window's position.
        static func recognise(_ window: InputWindow, at offset: Int) -> Recognition {
            guard offset >= 0 else { return .notATag }
            switch recognise(available: max(0, window.readable - offset), { window.peekUInt8(at: offset + $0) }) {
            case .needMoreData(let n): return .needMoreData(atLeast: offset + n)
            case let decided: return decided
            }
        }

        /// What `recognise` found.
        enum Recognition: Equatable {
            case header(Header)
            case notATag
            /// The readable bytes could start a header; this many decide.
            case needMoreData(atLeast: Int)
        }
    }

    /// The extended header's length, from its first four bytes (the caller has them).
    ///
    /// ```
    ///  2.3 (§3.2): size (4, big-endian, excludes itself: 6 or 10), flags (2), padding size (4),
    ///              [CRC (4) when flag 0x8000]
    ///  2.4 (§3.2): size (4, syncsafe, includes itself, ≥ 6), number of flag bytes (1), flags (1),
    ///              flag data
    /// ```
    ///
    /// - Returns: the bytes to skip from the start of the extended header, or `nil` when the size
    ///   field is invalid (2.4: not syncsafe or below 6).
    static func extendedHeaderLength(_ b: [UInt8], version: UInt8) -> Int? {
        guard b.count >= 4 else { return nil }
        if version == 3 {
            let size = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
            return size > UInt32(Header.maxSize) ? nil : 4 + Int(size)
        }
        guard b[0..<4].allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = syncsafe(b[0], b[1], b[2], b[3])
        return size < 6 ? nil : size
    }

    /// A 28-bit syncsafe integer (ID3v2.4.0 main structure §6.2; the top bit of each byte is ignored).
    static func syncsafe(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> Int {
        Int(b0 & 0x7F) << 21 | Int(b1 & 0x7F) << 14 | Int(b2 & 0x7F) << 7 | Int(b3 & 0x7F)
    }

    /// Reverses unsynchronisation (ID3v2.4.0 main structure §6.1): every `FF 00` becomes `FF`.
    static func removeUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { out.append(byte) }
            // After a removed 0x00 the pair is complete: "FF 00 00" keeps the second 00.
            previous = previous == 0xFF && byte == 0x00 ? 0x01 : byte
        }
        return out
    }
}
