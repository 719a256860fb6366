/// The containers this library recognises, as content probes, in the order they are asked.
enum FormatRegistry {
    static let probes: [FormatProbe] = [
        WAVEParser.probe,
        AIFFParser.probe,
        CAFParser.probe,
        NeXTParser.probe,
        OggParser.probe,
        FLACParser.probe,
        // ISO base media / QuickTime: a box type at offset 4 ('ftyp', or 'moov', 'mdat', … without ftyp).
        MP4Parser.probe,
        // Matroska and WebM: the EBML magic 1A 45 DF A3 and the DocType.
        MatroskaParser.probe,
        // AMR storage format: "#!AMR\n" or "#!AMR-WB\n".
        AMRParser.probe,
        // MPEG-2 transport streams: a sync byte 0x47 every 188, 192 or 204 bytes from the start.
        MPEGTSParser.probe,
        // One or more leading ID3v2 tags: read them, then detect the container after them. It decides
        // on the first 10 bytes, before any probe that would skip the tags itself.
        ID3v2PrefixParser.probe,
        ADTSParser.probe,
        // Raw AC-3 / E-AC-3: a sync frame confirmed by the next one, junk before it allowed.
        AC3Parser.probe,
        // MPEG audio scans past junk for a confirmed frame: keep it after every probe that
        // recognises a magic at offset 0.
        MPEGAudioParser.probe,
        // Raw LOAS: three LOAS frames in a row (an 11-bit syncword), junk before them allowed.
        LOASParser.probe,
    ]
}
