/// The fixed fields of an audio sample entry: ISO/IEC 14496-12 §12.2.3 `AudioSampleEntry`, and
/// Apple's QuickTime File Format "Sound sample description" versions 0, 1 and 2.
///
/// ```
///  offset size  ISO AudioSampleEntry            QuickTime sound description
///       0    4  size                            size
///       4    4  type (mp4a, alac, …)            data format (twos, sowt, lpcm, …)
///       8    6  reserved (0)                    reserved (0)
///      14    2  data_reference_index            data reference index
///      16    2  reserved (entry_version)        version (0, 1 or 2)
///      18    2  reserved                        revision level
///      20    4  reserved                        vendor
///      24    2  channelcount                    number of channels       (v2: always 3)
///      26    2  samplesize                      sample size in bits      (v2: always 16)
///      28    2  pre_defined                     compression ID           (v2: always −2)
///      30    2  reserved                        packet size              (v2: always 0)
///      32    4  samplerate (16.16)              sample rate (16.16)      (v2: always 65536)
///  version 1 (QuickTime), 16 more bytes:
///      36    4                                  samples per packet
///      40    4                                  bytes per packet (per channel)
///      44    4                                  bytes per frame
///      48    4                                  bytes per sample
///  version 2 (QuickTime), 36 more bytes:
///      36    4                                  sizeOfStructOnly
///      40    8                                  audioSampleRate (Float64)
///      48    4                                  numAudioChannels
///      52    4                                  always 0x7F000000
///      56    4                                  constBitsPerChannel
///      60    4                                  formatSpecificFlags (kAudioFormatFlag* for lpcm)
///      64    4                                  constBytesPerAudioPacket
///      68    4                                  constLPCMFramesPerAudioPacket
///  then child boxes (esds, wave, chan, btrt, alac, dOps, dfLa, dac3, dec3, …)
/// ```
///
/// ISO files only use version 0 (the version field is reserved); QuickTime files use all three.
struct MP4SoundDescription {
    /// The entry type (`mp4a`, `twos`, …).
    var format: UInt32
    /// 0, 1 or 2 (always 0 when the layout is ISO's).
    var version: UInt16
    /// Channels (v2: numAudioChannels).
    var channelCount: UInt32
    /// Bits per sample (v2: constBitsPerChannel).
    var sampleSize: UInt32
    /// Frames per second (v0/v1: the 16.16 field; v2: audioSampleRate).
    var sampleRate: Double
    /// Version 1: samples per packet, bytes per packet (per channel), bytes per frame, bytes per sample.
    var version1: (samplesPerPacket: UInt32, bytesPerPacket: UInt32, bytesPerFrame: UInt32, bytesPerSample: UInt32)?
    /// Version 2: formatSpecificFlags, constBytesPerAudioPacket, constLPCMFramesPerAudioPacket.
    var version2: (flags: UInt32, bytesPerPacket: UInt32, framesPerPacket: UInt32)?
    /// The child boxes after the fixed fields.
    var children: ArraySlice<UInt8>

    /// Bytes before the child boxes, per version.
    static let fixedSizes: [Int] = [36, 52, 72]

    /// Decodes the fixed fields of `entry` (the whole sample entry box, header included).
    ///
    /// - Parameter isQuickTime: use the QuickTime layouts of versions 1 and 2. In an ISO file a
    ///   non-zero version is still read as QuickTime's when the ISO layout leaves no room for a child
    ///   box at offset 36 but the QuickTime one does (some muxers write QuickTime entries into `.mp4`).
    init(_ entry: [UInt8], isQuickTime: Bool) throws(StructureError) {
        guard entry.count >= 36 else {
            throw Structure.mp4("stsd").invalid("audio sample entry shorter than 36 bytes")
        }
        // Safe: every field read lies before `fixedSizes[version]`, checked against the entry's length
        // first (a field past the end would read as 0, never trap).
        let fields = ByteReader(entry)
        func u16(_ i: Int) -> UInt16 { fields.peekInteger(at: i, as: UInt16.self, endianness: .big) ?? 0 }
        func u32(_ i: Int) -> UInt32 { fields.peekInteger(at: i, as: UInt32.self, endianness: .big) ?? 0 }
        format = u32(4)
        let declaredVersion = u16(16)
        var version: UInt16 = 0
        if declaredVersion == 1 || declaredVersion == 2 {
            let quickTimeEnd = Self.fixedSizes[Int(declaredVersion)]
            if isQuickTime {
                version = declaredVersion
            } else if entry.count >= quickTimeEnd, !Self.startsWithBox(entry, at: 36),
                entry.count == quickTimeEnd || Self.startsWithBox(entry, at: quickTimeEnd)
            {
                version = declaredVersion
            }
        } else if declaredVersion != 0 && isQuickTime {
            throw Structure.mp4("stsd").unsupported(
                "sound description version \(declaredVersion) is not supported")
        }
        self.version = version
        let fixed = Self.fixedSizes[Int(version)]
        guard entry.count >= fixed else {
            throw Structure.mp4("stsd").invalid(
                "sound description version \(version) shorter than \(fixed) bytes")
        }
        channelCount = UInt32(u16(24))
        sampleSize = UInt32(u16(26))
        let rate = u32(32)
        sampleRate = Double(rate >> 16) + Double(rate & 0xFFFF) / 65536
        version1 = nil
        version2 = nil
        if version == 1 {
            version1 = (u32(36), u32(40), u32(44), u32(48))
        } else if version == 2 {
            let bits = UInt64(u32(40)) << 32 | UInt64(u32(44))
            sampleRate = Double(bitPattern: bits)
            channelCount = u32(48)
            sampleSize = u32(56)
            version2 = (u32(60), u32(64), u32(68))
            guard sampleRate.isFinite, sampleRate > 0 else {
                throw Structure.mp4("stsd").invalid("version 2 audioSampleRate is not positive")
            }
        }
        children = entry[fixed...]
    }

    /// True when `entry[offset...]` starts with a plausible box header: size ≥ 8 that fits, and a
    /// type of four printable ASCII characters.
    static func startsWithBox(_ entry: [UInt8], at offset: Int) -> Bool {
        guard offset + 8 <= entry.count,
            let size32 = ByteReader(entry).peekInteger(at: offset, as: UInt32.self, endianness: .big)
        else { return false }
        let size = Int(size32)
        guard size >= 8, size <= entry.count - offset else { return false }
        return entry[(offset + 4)..<(offset + 8)].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
