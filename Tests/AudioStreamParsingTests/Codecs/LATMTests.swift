import Testing

@testable import AudioStreamParsing

/// LATM (ISO/IEC 14496-3 §1.7.3): `AudioMuxElement` and `StreamMuxConfig` decoded from elements built
/// bit by bit here after the syntax tables (1.41, 1.42, 1.44, 1.45), and `BitReader.readBits`.
struct LATMTests {
    /// AAC-LC, 48 kHz (index 3), stereo, GASpecificConfig 0 0 0: 00010 0011 0010 000 = 0x11 0x90.
    static func writeConfig(_ w: inout BitWriter) {
        w.write(2, bits: 5)
        w.write(3, bits: 4)
        w.write(2, bits: 4)
        w.write(0, bits: 3)
    }

    /// An element with useSameStreamMux 0 and an audioMuxVersion 0 configuration of `subFrames`
    /// sub-frames (frameLengthType 0), then the payloads, then byte alignment.
    static func versionZeroElement(_ payloads: [[UInt8]], otherDataBits: Int = 0) -> [UInt8] {
        var w = BitWriter()
        w.write(false)  // useSameStreamMux
        w.write(0, bits: 1)  // audioMuxVersion
        w.write(true)  // allStreamsSameTimeFraming
        w.write(UInt32(payloads.count - 1), bits: 6)  // numSubFrames
        w.write(0, bits: 4)  // numProgram
        w.write(0, bits: 3)  // numLayer
        writeConfig(&w)
        w.write(0, bits: 3)  // frameLengthType
        w.write(0xFF, bits: 8)  // latmBufferFullness
        if otherDataBits > 0 {
            w.write(true)  // otherDataPresent
            w.write(false)  // otherDataLenEsc
            w.write(UInt32(otherDataBits), bits: 8)
        } else {
            w.write(false)
        }
        w.write(false)  // crcCheckPresent
        for payload in payloads {
            var n = payload.count
            while n >= 255 {
                w.write(255, bits: 8)
                n -= 255
            }
            w.write(UInt32(n), bits: 8)
            for byte in payload { w.write(UInt32(byte), bits: 8) }
        }
        w.write(0, bits: otherDataBits)
        w.alignToByte()
        return w.bytes
    }

    @Test("readBits copies bit-aligned bytes out, the last partial; too many bits return nil without moving")
    func readBits() {
        var reader = BitReader([0b1010_1100, 0b0101_0011, 0b1111_0000], order: .mostSignificantFirst)
        let skipped = reader.skip(3)
        let byte = reader.readBits(8)
        let partial = reader.readBits(5)
        let tooMany = reader.readBits(9)
        let position = reader.bitPosition
        let aligned = reader.readBits(8)
        #expect(skipped && byte == [0b0110_0010] && partial == [0b1001_1000])
        #expect(tooMany == nil && position == 16)
        #expect(aligned == [0b1111_0000] && reader.remainingBits == 0)
    }

    @Test("version 0: the configuration in place, one payload per sub-frame, a 300-byte length in two bytes")
    func versionZero() throws {
        let first = [UInt8](repeating: 0xA5, count: 300)
        let second: [UInt8] = [0x01, 0x02, 0x03]
        let bytes = Self.versionZeroElement([first, second], otherDataBits: 5)
        var notes: [DiagnosticNote] = []
        guard case .element(let element) = try AudioMuxElement.decode(bytes[...], current: nil, notes: &notes) else {
            Issue.record("not an element")
            return
        }
        #expect(element.carriedConfig && element.payloads == [first, second] && notes.isEmpty)
        let asc = element.config.audioSpecificConfig
        #expect(asc.audioObjectType == 2 && asc.samplingFrequency == 48000 && asc.channelCount == 2)
        #expect(asc.bytes == [0x11, 0x90] && element.config.subFrames == 2 && element.config.otherDataBits == 5)
        // The next element reuses it: useSameStreamMux 1, then one length and payload per sub-frame.
        var w = BitWriter()
        w.write(true)
        for payload in [second, second] {
            w.write(UInt32(payload.count), bits: 8)
            for byte in payload { w.write(UInt32(byte), bits: 8) }
        }
        w.write(0, bits: 5)
        w.alignToByte()
        guard case .element(let next) = try AudioMuxElement.decode(w.bytes[...], current: element.config, notes: &notes)
        else {
            Issue.record("not an element")
            return
        }
        #expect(!next.carriedConfig && next.payloads == [second, second])
        // Without a configuration in force it cannot be read.
        guard case .noConfigurationYet = try AudioMuxElement.decode(w.bytes[...], current: nil, notes: &notes) else {
            Issue.record("read without a configuration")
            return
        }
    }

    @Test("version 1: taraBufferFullness, ascLen with fill bits, otherDataLenBits by LatmGetValue")
    func versionOne() throws {
        var w = BitWriter()
        w.write(false)  // useSameStreamMux
        w.write(1, bits: 1)  // audioMuxVersion
        w.write(0, bits: 1)  // audioMuxVersionA
        w.write(0, bits: 2)  // taraBufferFullness: bytesForValue 0, one byte
        w.write(0xFF, bits: 8)
        w.write(true)  // allStreamsSameTimeFraming
        w.write(0, bits: 6)  // numSubFrames
        w.write(0, bits: 4)  // numProgram
        w.write(0, bits: 3)  // numLayer
        w.write(0, bits: 2)  // ascLen: one byte, 16 + 4 fill bits
        w.write(20, bits: 8)
        Self.writeConfig(&w)
        w.write(0, bits: 4)  // fillBits
        w.write(1, bits: 3)  // frameLengthType 1
        w.write(0, bits: 9)  // frameLength 0: payloads of 20 bytes
        w.write(true)  // otherDataPresent
        w.write(0, bits: 2)  // otherDataLenBits: one byte
        w.write(3, bits: 8)
        w.write(false)  // crcCheckPresent
        let payload = [UInt8](0..<20)
        for byte in payload { w.write(UInt32(byte), bits: 8) }
        w.write(0b101, bits: 3)  // otherData
        w.alignToByte()
        var notes: [DiagnosticNote] = []
        guard case .element(let element) = try AudioMuxElement.decode(w.bytes[...], current: nil, notes: &notes) else {
            Issue.record("not an element")
            return
        }
        #expect(element.payloads == [payload] && element.config.audioMuxVersion == 1)
        #expect(element.config.layers[0].fixedPayloadBytes == 20 && element.config.otherDataBits == 3)
        // ascLen's 20 bits are the configuration's bytes (fill bits zero).
        #expect(element.config.audioSpecificConfig.bytes == [0x11, 0x90, 0x00])
    }

    @Test("a CELP frameLengthType is refused, a payload past the element and an empty element are invalid")
    func refusals() throws {
        var w = BitWriter()
        w.write(false)
        w.write(0, bits: 1)
        w.write(true)
        w.write(0, bits: 6)
        w.write(0, bits: 4)
        w.write(0, bits: 3)
        Self.writeConfig(&w)
        w.write(4, bits: 3)  // frameLengthType 4: CELP
        w.write(0, bits: 6)
        w.alignToByte()
        var notes: [DiagnosticNote] = []
        guard case .refused(let error) = try AudioMuxElement.decode(w.bytes[...], current: nil, notes: &notes) else {
            Issue.record("not refused")
            return
        }
        #expect(error == StreamMuxConfig.structure.unsupported("frameLengthType 4 (CELP or HVXC)"))
        var cut = Self.versionZeroElement([[1, 2, 3, 4]])
        cut.removeLast(2)
        #expect(throws: AudioMuxElement.structure.invalid("a payload of 4 bytes runs past the element")) {
            try AudioMuxElement.decode(cut[...], current: nil, notes: &notes)
        }
        #expect(throws: AudioMuxElement.structure.invalid("empty")) {
            try AudioMuxElement.decode([][...], current: nil, notes: &notes)
        }
    }

    @Test("the LOAS header: syncword 0x2B7 and a non-zero length")
    func syncHeader() {
        #expect(AudioSyncStreamHeader(0x56E1_07)?.frameLength == 3 + 0x107)
        #expect(AudioSyncStreamHeader(0x56E0_00) == nil)  // empty element
        #expect(AudioSyncStreamHeader(0x57E1_07) == nil)  // not the syncword
    }
}
