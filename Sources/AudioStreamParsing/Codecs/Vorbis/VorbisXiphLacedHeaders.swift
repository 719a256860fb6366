/// The three Vorbis header packets as a container's codec configuration carries them in Xiph lacing
/// (Matroska `A_VORBIS` CodecPrivate, the DecoderSpecificInfo of MP4's objectTypeIndication 0xDD; the
/// layout is drawn at ``VorbisMagicCookie``): decoded once for every container.
struct VorbisXiphLacedHeaders {
    /// The identification header.
    var identification: VorbisIdentificationHeader
    /// The setup header's modes and block sizes, for packet durations.
    var setup: VorbisSetupHeader
    /// The library's Vorbis cookie (comment header reduced to the vendor string), as Ogg Vorbis gives it.
    var magicCookie: [UInt8]

    /// Decodes the laced headers.
    ///
    /// - Parameter structure: names the container's configuration in errors.
    /// - Throws: `invalidFile` when the bytes are not three Xiph-laced packets or a header is malformed.
    static func decode(_ bytes: ArraySlice<UInt8>, _ structure: Structure) throws(StructureError)
        -> VorbisXiphLacedHeaders
    {
        guard let packets = VorbisMagicCookie.split(bytes) else {
            throw structure.invalid("Vorbis configuration is not three Xiph-laced header packets")
        }
        let id = try VorbisIdentificationHeader.decode(packets[0])
        let setup = try VorbisSetupHeader.decode(packets[2], channels: id.channels)
        return VorbisXiphLacedHeaders(
            identification: id, setup: setup,
            magicCookie: VorbisMagicCookie.make(identification: packets[0], comment: packets[1], setup: packets[2]))
    }
}
