import Testing

@testable import AudioStreamParsing

/// The codec configurations of `Codecs/` decoded from hand-built bytes: fields, and the reasons of the
/// errors (the containers report them unchanged).
struct CodecConfigurationTests {
    /// ETSI TS 102 366 F.4: fscod 0 (48 kHz), bsid 8, bsmod 0, acmod 7 (3/2), lfeon 1, bit_rate_code 15:
    /// 00 01000 000 111 1 01111 00000 → 10 3D E0.
    @Test("dac3: 5.1 at 48 kHz, 448 kbit/s; short bodies and the reserved fscod are refused")
    func ac3SpecificBox() throws {
        let box = try AC3SpecificBox.decode([0x10, 0x3D, 0xE0][...])
        #expect(box.fscod == 0 && box.bsid == 8 && box.bsmod == 0 && box.acmod == 7 && box.lfeon)
        #expect(box.sampleRate == 48000 && box.channelCount == 6 && box.bitRateKbps == 448)
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (dac3): shorter than 3 bytes")) {
            try AC3SpecificBox.decode([0x10, 0x3D][...])
        }
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (dac3): reserved fscod 3")) {
            try AC3SpecificBox.decode([0xD0, 0x3D, 0xE0][...])
        }
    }

    /// F.6: data_rate 640, num_ind_sub 0; fscod 1 (44.1 kHz), bsid 16, acmod 2, no LFE, no dependent
    /// substreams: 0x1400, then 01 10000 0 0 000 010 0 000 0000 0 → 60 04 00.
    @Test("dec3: the first independent substream's rate and channels, the data rate")
    func ec3SpecificBox() throws {
        let box = try EC3SpecificBox.decode([0x14, 0x00, 0x60, 0x04, 0x00][...])
        #expect(box.dataRate == 640 && box.fscod == 1 && box.bsid == 16 && box.acmod == 2 && !box.lfeon)
        #expect(box.sampleRate == 44100 && box.channelCount == 2)
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (dec3): shorter than 5 bytes")) {
            try EC3SpecificBox.decode([0x14, 0x00, 0x60, 0x04][...])
        }
    }

    @Test("AudioSpecificConfig.decode names the field it ends in and a reserved frequency index")
    func audioSpecificConfigErrors() {
        let asc = AudioSpecificConfig.structure
        #expect(throws: asc.invalid("ends inside samplingFrequencyIndex")) { try AudioSpecificConfig.decode([0x12]) }
        // 00010 1101 0001 000: index 13.
        #expect(throws: asc.invalid("samplingFrequencyIndex 13 is reserved")) {
            try AudioSpecificConfig.decode([0x16, 0x88])
        }
    }

    /// GASpecificConfig cut short (ISO/IEC 14496-3 §1.6.2.1 Table 1.15, §4.4.1 Table 4.1), hand-built: the
    /// object type, rates and channels are kept, with one `.truncated` note naming the field.
    @Test("an AudioSpecificConfig whose GASpecificConfig is cut short keeps object type, rate and channels")
    func audioSpecificConfigCutShort() throws {
        // 00010 0100 0010 | frameLengthFlag 0, dependsOnCoreCoder 1, then 1 of the 14 coreCoderDelay bits:
        // 0001 0010 0001 0010 → 12 12 (AAC-LC, 44.1 kHz, stereo).
        var notes: [DiagnosticNote] = []
        let lc = try AudioSpecificConfig.decode([0x12, 0x12], notes: &notes)
        #expect(lc.audioObjectType == 2 && lc.samplingFrequency == 44100 && lc.channelCount == 2)
        #expect(lc.frameLength == 1024 && lc.extensionAudioObjectType == nil)
        #expect(notes.map(\.kind) == [.truncated])
        #expect(notes.first?.message.hasPrefix("aac (AudioSpecificConfig): ends inside coreCoderDelay") == true)
        // frameLengthFlag 1 (960), dependsOnCoreCoder 1, delay cut: 0001 0010 0001 0110 → 12 16.
        notes = []
        let short = try AudioSpecificConfig.decode([0x12, 0x16], notes: &notes)
        #expect(short.frameLength == 960 && notes.count == 1)
        // Explicit SBR (AOT 5, 24 kHz, stereo, extension 48 kHz, AOT 2), then frameLengthFlag 0 and
        // dependsOnCoreCoder 0, and the bytes end before extensionFlag:
        // 00101 0110 0010 0011 00010 00 → 2B 11 88.
        notes = []
        let he = try AudioSpecificConfig.decode([0x2B, 0x11, 0x88], notes: &notes)
        #expect(he.audioObjectType == 2 && he.samplingFrequency == 24000 && he.channelCount == 2)
        #expect(he.extensionAudioObjectType == 5 && he.extensionSamplingFrequency == 48000)
        #expect(notes.first?.message.hasPrefix("aac (AudioSpecificConfig): ends inside extensionFlag") == true)
        // The public initializer gives the same configuration; a whole one gives no note.
        #expect(AudioSpecificConfig(bytes: [0x12, 0x12]) == lc)
        notes = []
        _ = try AudioSpecificConfig.decode([0x12, 0x10], notes: &notes)
        #expect(notes.isEmpty)
    }

    @Test("the esds body: version and flags first; the ES_Descriptor from its tag is the cookie")
    func esdsBody() throws {
        let asc: [UInt8] = [0x12, 0x10]
        let cookie = ESDescriptor.encode(audioSpecificConfig: asc, bufferSizeDB: 1536, maxBitrate: 0, avgBitrate: 0)
        let es = try ESDescriptor.decode(esdsBody: ([0, 0, 0, 0] + cookie)[...])
        #expect(es.bytes == cookie && es.decoderConfig.decoderSpecificInfo == asc)
        #expect(es.decoderConfig.objectTypeIndication == 0x40 && es.decoderConfig.bufferSizeDB == 1536)
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (esds): version 1 is not 0")) {
            try ESDescriptor.decode(esdsBody: ([1, 0, 0, 0] + cookie)[...])
        }
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (esds): shorter than its version and flags")) {
            try ESDescriptor.decode(esdsBody: [0, 0][...])
        }
    }

    @Test("dOps gives the OpusHead that OpusHead.decode reads back")
    func opusSpecificBoxToOpusHead() throws {
        let dOps: [UInt8] = [0, 2, 0x01, 0x38, 0x00, 0x00, 0xBB, 0x80, 0, 0, 0]
        let head = try OpusSpecificBox.decode(dOps[...]).opusHead
        #expect(head.rawBytes == OpusHead.magic + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0])
        #expect(try OpusHead.decode(head.rawBytes) == head)
        #expect(head.preSkip == 312 && head.inputSampleRate == 48000 && head.channelCount == 2)
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (dOps): OutputChannelCount is zero")) {
            try OpusSpecificBox.decode([0, 0, 0x01, 0x38, 0x00, 0x00, 0xBB, 0x80, 0, 0, 0][...])
        }
    }

    @Test("dfLa: a version-0 box whose first block is STREAMINFO; a STREAMINFO error keeps its own prefix")
    func flacSpecificBox() throws {
        var streamInfo: [UInt8] = [0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0x0A, 0xC4, 0x42, 0xF0]
        streamInfo += [UInt8](repeating: 0, count: 20)
        let body: [UInt8] = [0, 0, 0, 0, 0x80, 0, 0, 34] + streamInfo
        let box = try FLACSpecificBox.decode(body[...])
        #expect(box.bytes == body && box.streamInfo.sampleRate == 44100 && box.streamInfo.channels == 2)
        #expect(box.streamInfo.magicCookie == body)
        #expect(throws: FLACSpecificBox.structure.invalid("no version-0 box with a STREAMINFO block")) {
            try FLACSpecificBox.decode(([1] + body.dropFirst())[...])
        }
        var zeroRate = body
        zeroRate[18] = 0
        zeroRate[19] = 0
        zeroRate[20] &= 0x0F
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (dfLa): flac (STREAMINFO): sample rate is zero")) {
            try FLACSpecificBox.decode(zeroRate[...])
        }
    }
}
