/// The header of one AC-3 or Enhanced AC-3 sync frame: `syncinfo()` and the first fields of `bsi()`,
/// decoded from the frame's first 8 bytes. The two syntaxes share the syncword and put `bsid` in the
/// same place (byte 5, bits 7…3), which tells them apart: `bsid` ≤ 10 is AC-3 (ATSC A/52 §5.3.1,
/// §5.3.2; ETSI TS 102 366 §4.4.1, §4.4.2), 11…16 is E-AC-3 (ETSI TS 102 366 Annex E, §E.1.2.1,
/// §E.1.2.2; A/52 Annex E).
///
/// ```
///  AC-3 (bsid ≤ 10)
///  byte 0   byte 1   byte 2   byte 3   byte 4   byte 5   byte 6   byte 7
///  SSSSSSSS SSSSSSSS CCCCCCCC CCCCCCCC FFZZZZZZ BBBBBMMM AAA…      (then, by acmod:)
///
///  S 16 syncword 0x0B77          C 16 crc1                 F 2 fscod (3 reserved)
///  Z  6 frmsizecod (0…37)        B  5 bsid                 M 3 bsmod
///  A  3 acmod, then cmixlev 2 (if acmod & 1 and acmod ≠ 1), surmixlev 2 (if acmod & 4),
///       dsurmod 2 (if acmod = 2), then lfeon 1
///
///  E-AC-3 (bsid 11…16)
///  byte 0   byte 1   byte 2   byte 3   byte 4   byte 5
///  SSSSSSSS SSSSSSSS TTIIIZZZ ZZZZZZZZ FFNNAAAL BBBBBddd
///
///  S 16 syncword 0x0B77          T 2 strmtyp (0 independent, 1 dependent, 2 AC-3 converted, 3 reserved)
///  I  3 substreamid              Z 11 frmsiz: words in the frame − 1
///  F  2 fscod                    N 2 numblkscod (1, 2, 3, 6 blocks); when fscod = 3 these bits are
///                                     fscod2 (24, 22.05, 16 kHz; 3 reserved) and the frame has 6 blocks
///  A  3 acmod                    L 1 lfeon             B 5 bsid       d dialnorm …
/// ```
///
/// Frame length: AC-3 from `frmsizecod` and `fscod` (Table 4.13, words per sync frame: 2 × the nominal
/// kbit/s at 48 kHz, 3 × at 32 kHz, ⌊kbit/s × 1000 × 1536 / 44100 / 16⌋ + (frmsizecod & 1) at 44.1 kHz);
/// E-AC-3 `(frmsiz + 1) × 2` bytes. An AC-3 sync frame holds 6 audio blocks of 256 samples; an E-AC-3
/// one 1, 2, 3 or 6 blocks (`numblkscod`).
struct AC3SyncFrame: Hashable, Sendable {
    /// The syncword, 0x0B77.
    static let syncword: UInt16 = 0x0B77
    /// The bytes the decoder reads: enough for `lfeon` in either syntax.
    static let headerByteCount = 8
    /// Samples per audio block (§4.4.1).
    static let samplesPerBlock = 256

    /// Which syntax the frame uses.
    enum Syntax: Hashable, Sendable {
        /// AC-3 (`bsid` ≤ 10; 9 and 10 are the half- and quarter-rate extensions of A/52 Annex E's
        /// predecessors, decoded like 8).
        case ac3
        /// Enhanced AC-3 (`bsid` 11…16).
        case enhanced
    }

    /// `strmtyp` of an E-AC-3 frame (Table E.1.1); AC-3 frames are `.independent`.
    enum StreamType: UInt8, Hashable, Sendable {
        case independent = 0
        case dependent = 1
        /// An AC-3 stream converted to E-AC-3 (independent).
        case converted = 2
    }

    var syntax: Syntax
    var streamType: StreamType
    /// `substreamid` (E-AC-3; 0 for AC-3).
    var substreamID: UInt8
    /// `fscod`.
    var fscod: UInt8
    /// The sample rate in Hz (E-AC-3 `fscod2` for the reduced rates).
    var sampleRate: UInt32
    /// Audio blocks of 256 samples in the frame.
    var blocks: Int
    /// `bsid`.
    var bsid: UInt8
    /// `acmod`.
    var acmod: UInt8
    /// `lfeon`.
    var lfeon: Bool
    /// `frmsizecod` (AC-3; 0 for E-AC-3).
    var frmsizecod: UInt8
    /// The whole frame in bytes.
    var frameLength: Int

    /// The outcome of decoding a header.
    enum Decoded: Hashable, Sendable {
        case valid(AC3SyncFrame)
        /// The syncword is there but a field is reserved or out of range (why, for a diagnostic).
        case invalid(String)
        /// The first 16 bits are not the syncword.
        case noSync
    }

    /// Decodes the 8 header bytes given big-endian in `bits`.
    static func decode(_ bits: UInt64) -> Decoded {
        func field(_ offset: Int, _ width: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: (bits >> UInt64(64 - offset - width)) & ((1 << UInt64(width)) - 1))
        }
        guard bits >> 48 == UInt64(syncword) else { return .noSync }
        let bsid = field(40, 5)
        if bsid <= 10 {
            let fscod = field(32, 2)
            let frmsizecod = field(34, 6)
            guard let rate = AC3.sampleRate(fscod: fscod) else { return .invalid("reserved fscod 3") }
            guard frmsizecod < 38 else { return .invalid("frmsizecod \(frmsizecod) is past Table 4.13") }
            let acmod = field(48, 3)
            // cmixlev, surmixlev and dsurmod come before lfeon, each only for some acmod values.
            var skip = 0
            if acmod & 1 != 0 && acmod != 1 { skip += 2 }
            if acmod & 4 != 0 { skip += 2 }
            if acmod == 2 { skip += 2 }
            return .valid(
                AC3SyncFrame(
                    syntax: .ac3, streamType: .independent, substreamID: 0, fscod: fscod, sampleRate: rate,
                    blocks: 6, bsid: bsid, acmod: acmod, lfeon: field(51 + skip, 1) == 1, frmsizecod: frmsizecod,
                    frameLength: 2 * AC3.wordsPerSyncFrame(fscod: fscod, frmsizecod: frmsizecod)))
        }
        guard bsid <= 16 else { return .invalid("bsid \(bsid) is neither AC-3 (≤ 10) nor E-AC-3 (11…16)") }
        guard let type = StreamType(rawValue: field(16, 2)) else { return .invalid("reserved strmtyp 3") }
        let fscod = field(32, 2)
        let rate: UInt32
        let blocks: Int
        if fscod == 3 {
            let fscod2 = field(34, 2)
            guard fscod2 < 3 else { return .invalid("reserved fscod2 3") }
            rate = [24000, 22050, 16000][Int(fscod2)]
            blocks = 6
        } else {
            rate = AC3.sampleRates[Int(fscod)]
            blocks = [1, 2, 3, 6][Int(field(34, 2))]
        }
        let words = Int(UInt16(field(21, 3)) << 8 | UInt16(field(24, 8))) + 1
        // The smallest frame holds syncinfo, bsi and the audio blocks' first fields (§E.1.3.1.5:
        // frmsiz 2…2047 are allowed).
        guard words >= 3 else { return .invalid("frmsiz \(words - 1) is below the smallest frame") }
        return .valid(
            AC3SyncFrame(
                syntax: .enhanced, streamType: type, substreamID: field(18, 3), fscod: fscod, sampleRate: rate,
                blocks: blocks, bsid: bsid, acmod: field(36, 3), lfeon: field(39, 1) == 1, frmsizecod: 0,
                frameLength: 2 * words))
    }

    /// Reads and decodes the header `offset` bytes after the window's position; `nil` when the 8 bytes
    /// are not readable.
    static func decode(_ window: InputWindow, at offset: Int) -> Decoded? {
        window.peekInteger(at: offset, byteCount: headerByteCount, as: UInt64.self, endianness: .big).map {
            decode($0)
        }
    }

    /// True for the frame that starts an audio block set: an AC-3 frame, or an independent E-AC-3
    /// frame of substream 0. Dependent substreams and further independent substreams follow it and
    /// belong to its packet.
    var startsPacket: Bool { syntax == .ac3 || (streamType != .dependent && substreamID == 0) }

    /// Samples per channel of the frame.
    var samples: Int { blocks * Self.samplesPerBlock }

    /// The channels: acmod's full-bandwidth channels plus the LFE.
    var channelCount: UInt32 { AC3.channelCount(acmod: acmod, lfeon: lfeon) }

    /// The nominal bit rate in bit/s: Table 4.13 for AC-3; frame bits over the frame's duration for
    /// E-AC-3.
    var bitRate: UInt32 {
        switch syntax {
        case .ac3: return AC3.nominalBitRates[Int(frmsizecod / 2)] * 1000
        case .enhanced: return UInt32(frameLength * 8 * Int(sampleRate) / samples)
        }
    }

    /// True when `other` can follow this frame in the same stream: the same syntax and sample rate
    /// (channels may change at a program boundary; that is announced as a format change).
    func agrees(with other: AC3SyncFrame) -> Bool {
        syntax == other.syntax && sampleRate == other.sampleRate
    }

    /// The stream description CoreAudio gives AC-3 (`ac-3`) and E-AC-3 (`ec-3`), as MP4 and Matroska
    /// give it: variable packet size, 1536 frames per packet for AC-3 (the frame's samples for E-AC-3).
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: Double(sampleRate), formatID: syntax == .ac3 ? .ac3 : .enhancedAC3, formatFlags: 0,
            bytesPerPacket: 0, framesPerPacket: UInt32(samples), bytesPerFrame: 0, channelsPerFrame: channelCount,
            bitsPerChannel: 0)
    }

    /// The channel layout of `acmod` and `lfeon` (``AC3/channelLayoutTag(acmod:lfeon:)``).
    var channelLayout: ChannelLayout? {
        AC3.channelLayoutTag(acmod: acmod, lfeon: lfeon).map { ChannelLayout(tag: $0) }
    }
}
