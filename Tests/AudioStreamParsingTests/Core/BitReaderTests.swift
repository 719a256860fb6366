import Testing

@testable import AudioStreamParsing

/// `BitReader` in both bit orders (ISO/IEC 14496-3 §1.5.1.1 "bslbf"; Vorbis I §2.1.4) and `BitWriter`.
struct BitReaderTests {
    @Test("most significant bit first: values span bytes, reads past the end return nil without moving")
    func mostSignificantFirst() {
        var reader = BitReader([0b1011_0001, 0b0000_0011], order: .mostSignificantFirst)
        #expect(reader.read(1) == 1)
        #expect(reader.read(3) == 0b011)
        #expect(reader.read(6) == 0b0001_00)  // 4 bits of byte 0, then 2 of byte 1
        #expect(reader.read(7) == nil)  // only 6 bits left
        #expect(reader.bitPosition == 10 && reader.remainingBits == 6)
        #expect(reader.read(6) == 0b00_0011)
        var wide = BitReader([0x12, 0x34, 0x56, 0x78, 0xFF], order: .mostSignificantFirst)
        #expect(wide.read(32) == 0x1234_5678)
        #expect(wide.read(33) == nil && wide.read(-1) == nil)
    }

    @Test("skip and byte alignment count from the first bit; a failed skip does not move")
    func skipAndAlign() {
        var reader = BitReader([0xFF, 0x00, 0xAA][1...], order: .mostSignificantFirst)
        #expect(reader.skip(3) && reader.alignToByte() && reader.bitPosition == 8)
        #expect(reader.alignToByte() && reader.bitPosition == 8)
        #expect(!reader.skip(Int64(9)) && !reader.skip(-1) && reader.bitPosition == 8)
        #expect(reader.read(8) == 0xAA && reader.remainingBits == 0)
    }

    @Test("BitWriter writes what the MSB-first reader reads back")
    func writerRoundTrip() {
        var writer = BitWriter()
        writer.write(0b10110, bits: 5)
        writer.write(true)
        writer.write(0x3FF, bits: 10)
        writer.write(true)
        writer.alignToByte()
        #expect(writer.bytes == [0b1011_0111, 0b1111_1111, 0b1000_0000] && writer.bitCount == 24)
        var reader = BitReader(writer.bytes, order: .mostSignificantFirst)
        #expect(reader.read(5) == 0b10110 && reader.readFlag() == true && reader.read(10) == 0x3FF)
        #expect(reader.readFlag() == true && reader.read(7) == 0 && reader.remainingBits == 0)
    }
}
