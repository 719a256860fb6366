/// How the transport packets of a stream are laid out: 188 bytes (ISO/IEC 13818-1), 192 bytes (a
/// 4-byte TP_extra_header with the arrival time stamp before each packet: Blu-ray/AVCHD M2TS), or
/// 204 bytes (16 Reed-Solomon bytes after each packet: DVB/ATSC transmission). Told apart by the
/// spacing of the sync bytes.
///
/// ```
///  188: [47 …188…]                      192: [prefix 4][47 …188…]          204: [47 …188…][FEC 16]
/// ```
struct TSPacketLayout: Hashable, Sendable {
    /// Bytes from one packet's start to the next (prefix and FEC bytes included).
    var unitSize: Int
    /// Where the sync byte lies in a unit.
    var syncOffset: Int

    static let plain = TSPacketLayout(unitSize: 188, syncOffset: 0)
    static let m2ts = TSPacketLayout(unitSize: 192, syncOffset: 4)
    static let fec = TSPacketLayout(unitSize: 204, syncOffset: 0)
    /// In the order tried: a 192-byte stream also has a sync byte every 188 bytes only by chance.
    static let all: [TSPacketLayout] = [.plain, .m2ts, .fec]

    /// Units whose sync bytes must agree before a layout is taken (at the start, and to resynchronise).
    static let unitsToConfirm = 4

    /// What the bytes say about this layout at `offset` after the window's position.
    enum Check: Equatable {
        /// `count` units in a row have their sync byte.
        case confirmed
        /// A unit lacks its sync byte.
        case rejected
        /// This many readable bytes are needed.
        case needMoreData(Int)
    }

    /// Whether `unitsToConfirm` units from `offset` have their sync byte (fewer at the end of the
    /// stream: every unit there, at least two).
    func check(_ window: InputWindow, at offset: Int) -> Check {
        for k in 0..<Self.unitsToConfirm {
            let at = offset + k * unitSize + syncOffset
            guard let byte = window.peekUInt8(at: at) else {
                if window.isFinal { return k >= 2 ? .confirmed : .rejected }
                return .needMoreData(at + 1)
            }
            if byte != TSPacketHeader.syncByte { return .rejected }
        }
        return .confirmed
    }
}
