/// CRC_32 of the PSI sections (ISO/IEC 13818-1 Annex A): polynomial 0x04C11DB7, MSB first, initial
/// value 0xFFFFFFFF, no final XOR; a section followed by its CRC_32 field gives 0.
enum TSSectionCRC {
    /// The one-byte table (sections are at most 1024 bytes: no slicing needed).
    static let table = SlicedCRCTable<UInt32>(polynomial: 0x04C1_1DB7)

    /// True when the CRC over `section` (its CRC_32 field included) is 0.
    static func isValid(_ section: ArraySlice<UInt8>) -> Bool {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in section { crc = table.update(crc, byte) }
        return crc == 0
    }
}
