/// The magic number that opens an AMR or AMR-WB file in the storage format (RFC 4867 §5.1, §5.3): the
/// ASCII text `#!AMR\n` (narrowband) or `#!AMR-WB\n` (wideband), then the speech frames.
///
/// ```
///  single channel:  23 21 41 4D 52 0A                  "#!AMR\n"
///                   23 21 41 4D 52 2D 57 42 0A         "#!AMR-WB\n"
///  multi-channel:   "#!AMR_MC1.0\n" / "#!AMR-WB_MC1.0\n", then a 32-bit channel description
///                   (not supported: the parser reports unsupportedDataFormat)
/// ```
struct AMRStorageHeader: Equatable {
    /// The prefix every variant starts with.
    static let commonPrefix: [UInt8] = Array("#!AMR".utf8)
    static let narrowband: [UInt8] = Array("#!AMR\n".utf8)
    static let wideband: [UInt8] = Array("#!AMR-WB\n".utf8)
    static let narrowbandMultichannel: [UInt8] = Array("#!AMR_MC1.0\n".utf8)
    static let widebandMultichannel: [UInt8] = Array("#!AMR-WB_MC1.0\n".utf8)

    /// Whether the frames are AMR-WB.
    var isWideband: Bool
    /// Whether the file is the multi-channel variant.
    var isMultichannel: Bool
    /// The magic's length: where the first frame starts.
    var byteCount: Int

    /// What the first bytes of a stream say.
    enum Match: Equatable {
        case header(AMRStorageHeader)
        case noMatch
        /// The readable bytes agree with a magic so far; this many are needed to decide.
        case needMoreData(atLeast: Int)
    }

    /// Decodes the magic at the window's position. The answer for a prefix never contradicts the
    /// answer for a longer one (detection is independent of chunking).
    static func peek(_ window: InputWindow) -> Match {
        let candidates: [(bytes: [UInt8], header: AMRStorageHeader)] = [
            (narrowband, AMRStorageHeader(isWideband: false, isMultichannel: false, byteCount: narrowband.count)),
            (wideband, AMRStorageHeader(isWideband: true, isMultichannel: false, byteCount: wideband.count)),
            (
                narrowbandMultichannel,
                AMRStorageHeader(isWideband: false, isMultichannel: true, byteCount: narrowbandMultichannel.count)
            ),
            (
                widebandMultichannel,
                AMRStorageHeader(isWideband: true, isMultichannel: true, byteCount: widebandMultichannel.count)
            ),
        ]
        var undecided: Int?
        for candidate in candidates {
            let readable = min(window.readable, candidate.bytes.count)
            guard (0..<readable).allSatisfy({ window.peekUInt8(at: $0) == candidate.bytes[$0] }) else { continue }
            if readable == candidate.bytes.count { return .header(candidate.header) }
            undecided = min(undecided ?? Int.max, readable + 1)
        }
        return undecided.map { .needMoreData(atLeast: $0) } ?? .noMatch
    }
}

/// AMR frames as the packets of the storage format (``FramedPacketData``).
struct AMRPacketFraming: PacketFraming, Equatable {
    let isWideband: Bool

    var headerByteCount: Int { 1 }
    /// A random byte is a valid header with a probability of about 1/11 (padding bits 0: 1/8, a frame type
    /// that occurs: 10–12 of 16), so a chain of k headers arises by chance about once in 11^k candidates.
    /// Damage makes hundreds of candidates, and a false chain that ends on a true frame boundary would merge
    /// into the stream with an invented packet: eight more headers (about 1 in 2·10^8 per candidate; at
    /// most eight frames, under 500 bytes, of look-ahead) keep that out of reach.
    var confirmationDepth: Int { 8 }

    /// Resynchronisation starts at a frame with payload (speech or SID), never at a one-byte NO_DATA or
    /// SPEECH_LOST frame: one of those four header values as the last payload byte before a real frame
    /// (about 1 boundary in 64) would be taken for a frame, its confirmation the real frames after it.
    /// NO_DATA frames right after damage are lost until the next frame with payload.
    func canResynchronise(at packet: FramedPacket) -> Bool { packet.length > 1 }

    /// The payload of a frame whose header was damaged can hold a byte that reads as the header of a
    /// frame ending exactly at the next real frame (about one such byte in 250 per frame boundary): the
    /// first frame of a resynchronised chain is dropped, so only two chance headers in a row could invent.
    var dropsFirstPacketAfterResynchronising: Bool { true }

    /// In sync, a frame is emitted once the two headers after it are valid too: a damaged header that
    /// reads as another frame type is then caught (about 99 times in 100) instead of invented.
    var inSyncConfirmationDepth: Int { 2 }

    func packet(_ window: InputWindow, at offset: Int) -> FramedPacket? {
        guard let header = window.peekUInt8(at: offset),
            let size = AMRFrameType.storedSize(header: header, isWideband: isWideband)
        else { return nil }
        return FramedPacket(length: size, frames: isWideband ? 320 : 160)
    }
}
