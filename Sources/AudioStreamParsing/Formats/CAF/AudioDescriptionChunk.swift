/// The body of a CAF `desc` chunk (`CAFAudioDescription`; Apple "Core Audio Format Specification",
/// "Required Chunks", "Audio Description Chunk").
///
/// ```
/// offset  size  field               type
///      0     8  mSampleRate         Float64 (IEEE-754, big-endian)
///      8     4  mFormatID           four-character code (AudioFormat)
///     12     4  mFormatFlags        UInt32; for 'lpcm' CAF's own bits (below), otherwise the codec's
///     16     4  mBytesPerPacket     UInt32; 0 = variable (sizes in the 'pakt' chunk)
///     20     4  mFramesPerPacket    UInt32; 0 = variable (frame counts in the 'pakt' chunk)
///     24     4  mChannelsPerFrame   UInt32
///     28     4  mBitsPerChannel     UInt32
/// ```
///
/// It mirrors `AudioStreamBasicDescription` without `mBytesPerFrame` and `mReserved`, but the linear
/// PCM flags differ: CAF defines `kCAFLinearPCMFormatFlagIsFloat` (bit 0) and
/// `kCAFLinearPCMFormatFlagIsLittleEndian` (bit 1), where the ASBD has `IsFloat` (bit 0) and
/// `IsBigEndian` (bit 1). `streamDescription(...)` translates.
struct AudioDescriptionChunk: Equatable {
    /// The chunk, for messages.
    static let structure = Structure("caf", "desc")
    /// The body's size in bytes.
    static let byteCount = 32

    /// `kCAFLinearPCMFormatFlagIsFloat`.
    static let linearPCMIsFloat: UInt32 = 1 << 0
    /// `kCAFLinearPCMFormatFlagIsLittleEndian`.
    static let linearPCMIsLittleEndian: UInt32 = 1 << 1

    var sampleRate: Double
    var formatID: AudioFormat
    var formatFlags: UInt32
    var bytesPerPacket: UInt32
    var framesPerPacket: UInt32
    var channelsPerFrame: UInt32
    var bitsPerChannel: UInt32

    /// Decodes the 32-byte body, or `nil` when `bytes` is shorter.
    static func decode(_ bytes: [UInt8]) -> AudioDescriptionChunk? {
        var r = ByteReader(bytes)
        guard let rate = r.readInteger(as: UInt64.self, endianness: .big), let id = r.readFourCC(),
            let flags = r.readInteger(as: UInt32.self, endianness: .big),
            let bpp = r.readInteger(as: UInt32.self, endianness: .big),
            let fpp = r.readInteger(as: UInt32.self, endianness: .big),
            let channels = r.readInteger(as: UInt32.self, endianness: .big),
            let bits = r.readInteger(as: UInt32.self, endianness: .big)
        else { return nil }
        return AudioDescriptionChunk(
            sampleRate: Double(bitPattern: rate), formatID: AudioFormat(rawValue: id), formatFlags: flags,
            bytesPerPacket: bpp, framesPerPacket: fpp, channelsPerFrame: channels, bitsPerChannel: bits)
    }

    /// True when every packet has the same size and duration (LPCM, µ-law, A-law, IMA4): packets are
    /// counted arithmetically and no packet table is needed.
    var hasConstantPackets: Bool { bytesPerPacket > 0 && framesPerPacket > 0 }

    /// The `AudioStreamBasicDescription` this chunk describes.
    ///
    /// - Linear PCM: the CAF flags are translated (`IsFloat` kept; `IsBigEndian` set when
    ///   `IsLittleEndian` is clear and samples are wider than one byte; `IsSignedInteger` when not float;
    ///   `IsPacked` when the valid bits fill the sample's bytes, else `IsAlignedHigh`), and
    ///   `mBytesPerFrame = mBytesPerPacket`.
    /// - Other formats: every field passes through (ALAC's flags are its source bit-depth code, AAC's
    ///   the MPEG-4 object type); `mBytesPerFrame = mBytesPerPacket` when a packet holds one frame
    ///   (µ-law, A-law), else 0.
    ///
    /// - Throws: `invalidFile` (`dta?`) for a sample rate that is not positive and finite, zero channels,
    ///   format ID 0, or a linear PCM description whose packet is not one whole frame of
    ///   `mChannelsPerFrame` samples of at least `mBitsPerChannel` bits.
    func streamDescription() throws(StructureError) -> StreamDescription {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw Self.structure.invalid("sample rate is not a positive number")
        }
        guard channelsPerFrame > 0 else { throw Self.structure.invalid("channel count is zero") }
        guard formatID.rawValue != 0 else { throw Self.structure.invalid("format ID is zero") }
        guard formatID == .linearPCM else {
            return StreamDescription(
                sampleRate: sampleRate, formatID: formatID, formatFlags: formatFlags, bytesPerPacket: bytesPerPacket,
                framesPerPacket: framesPerPacket, bytesPerFrame: framesPerPacket == 1 ? bytesPerPacket : 0,
                channelsPerFrame: channelsPerFrame, bitsPerChannel: bitsPerChannel)
        }
        // Linear PCM: one frame per packet, the packet is channels × whole sample containers.
        let containerBytes = bytesPerPacket / channelsPerFrame
        guard framesPerPacket == 1, bytesPerPacket > 0, bytesPerPacket % channelsPerFrame == 0, bitsPerChannel > 0,
            containerBytes <= 8, bitsPerChannel <= containerBytes * 8
        else {
            throw Self.structure.invalid(
                "linear PCM needs one frame per packet, made of whole samples holding the bits per channel")
        }
        var flags: UInt32 = 0
        flags |= formatFlags & Self.linearPCMIsFloat != 0 ? LinearPCMFlags.isFloat : LinearPCMFlags.isSignedInteger
        // Byte order means nothing for 1-byte samples: no IsBigEndian there, as `StreamDescription.linearPCM`.
        if formatFlags & Self.linearPCMIsLittleEndian == 0 && containerBytes > 1 { flags |= LinearPCMFlags.isBigEndian }
        flags |= bitsPerChannel == containerBytes * 8 ? LinearPCMFlags.isPacked : LinearPCMFlags.isAlignedHigh
        return StreamDescription(
            sampleRate: sampleRate, formatID: .linearPCM, formatFlags: flags, bytesPerPacket: bytesPerPacket,
            framesPerPacket: 1, bytesPerFrame: bytesPerPacket, channelsPerFrame: channelsPerFrame,
            bitsPerChannel: bitsPerChannel)
    }
}
