/// The 4-byte header of a transport stream packet and the length of its adaptation field
/// (ISO/IEC 13818-1 §2.4.3.2, Table 2-2; §2.4.3.4, Table 2-6).
///
/// ```
///  byte 0   byte 1   byte 2   byte 3   [adaptation field]   [payload]
///  SSSSSSSS EUTPPPPP PPPPPPPP XXAACCCC
///
///  S  8 sync_byte 0x47                   E 1 transport_error_indicator
///  U  1 payload_unit_start_indicator     T 1 transport_priority
///  P 13 PID (0x0000 PAT, 0x1FFF null)    X 2 transport_scrambling_control (00: not scrambled)
///  A  2 adaptation_field_control: 01 payload only, 10 adaptation field only, 11 both, 00 reserved
///  C  4 continuity_counter: +1 (mod 16) per packet of the PID that has a payload
///
///  adaptation field: adaptation_field_length (8), then when it is > 0:
///  discontinuity_indicator (1), random_access_indicator (1), ES_priority (1), PCR_flag (1), … PCR,
///  stuffing: skipped whole (the PCR is not used: positions come from the PES time stamps)
/// ```
struct TSPacketHeader: Hashable, Sendable {
    /// The bytes of a transport stream packet (without an M2TS prefix or FEC bytes).
    static let packetSize = 188
    /// sync_byte.
    static let syncByte: UInt8 = 0x47
    /// The PID of the program association table.
    static let patPID: UInt16 = 0
    /// The PID of null packets.
    static let nullPID: UInt16 = 0x1FFF

    var transportError: Bool
    var payloadUnitStart: Bool
    var pid: UInt16
    var scrambled: Bool
    var hasAdaptationField: Bool
    var hasPayload: Bool
    var continuityCounter: UInt8

    /// Decodes the header word (sync byte included); `nil` without the sync byte.
    init?(_ word: UInt32) {
        guard word >> 24 == UInt32(Self.syncByte) else { return nil }
        transportError = word & 0x0080_0000 != 0
        payloadUnitStart = word & 0x0040_0000 != 0
        pid = UInt16(truncatingIfNeeded: word >> 8) & 0x1FFF
        scrambled = word & 0xC0 != 0
        hasAdaptationField = word & 0x20 != 0
        hasPayload = word & 0x10 != 0
        continuityCounter = UInt8(truncatingIfNeeded: word) & 0x0F
    }

    /// Where the payload starts in `packet` (188 bytes from the sync byte), and whether the adaptation
    /// field sets discontinuity_indicator; `nil` when the adaptation field overruns the packet.
    func payloadStart(_ packet: ArraySlice<UInt8>) -> (start: Int, discontinuity: Bool)? {
        guard hasAdaptationField else { return (4, false) }
        let base = packet.startIndex
        let length = Int(packet[base + 4])
        // With a payload the field leaves room for at least one byte (§2.4.3.5: 0…182); without, 183.
        guard 5 + length <= Self.packetSize else { return nil }
        let discontinuity = length > 0 && packet[base + 5] & 0x80 != 0
        return (5 + length, discontinuity)
    }
}
