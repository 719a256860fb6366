/// The top-level boxes of an MP4/QuickTime file, for tests that need to know where the `moov` and the
/// `mdat`s are (ISO/IEC 14496-12 §4.2: 32-bit size, type, 64-bit largesize when size is 1, size 0 to the end).
package struct MP4Layout {
    package struct Box {
        package var type: String
        package var offset: Int64
        package var size: Int64

        package init(type: String, offset: Int64, size: Int64) {
            (self.type, self.offset, self.size) = (type, offset, size)
        }
    }

    package var boxes: [Box] = []

    /// Reads the top-level boxes; `nil` when the bytes are not a sequence of boxes.
    package init?(_ bytes: [UInt8]) {
        var at = 0
        func be(_ p: Int, _ n: Int) -> UInt64 { (p..<(p + n)).reduce(0) { $0 << 8 | UInt64(bytes[$1]) } }
        while at + 8 <= bytes.count {
            var size = Int64(be(at, 4))
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            if size == 1 {
                guard at + 16 <= bytes.count else { return nil }
                size = Int64(be(at + 8, 8))
            } else if size == 0 {
                size = Int64(bytes.count - at)
            }
            guard size >= 8 else { return nil }
            boxes.append(Box(type: type, offset: Int64(at), size: size))
            at += Int(min(size, Int64(bytes.count - at)))
        }
        guard !boxes.isEmpty else { return nil }
    }

    package func first(_ type: String) -> Box? { boxes.first { $0.type == type } }

    /// True when an `mdat` comes before the `moov` (a file not written for streaming).
    package var movieFollowsMedia: Bool {
        guard let moov = first("moov"), let mdat = first("mdat") else { return false }
        return mdat.offset < moov.offset
    }
}
