/// The containers this library recognises, as content probes, in the order they are asked.
enum FormatRegistry {
    static let probes: [FormatProbe] = [
        WAVEParser.probe,
        AIFFParser.probe,
        CAFParser.probe,
        NeXTParser.probe,
        // A leading ID3v2 tag: detects the container after it.
        ID3v2PrefixParser.probe,
        // MPEG audio scans past junk for a confirmed frame: keep it after every probe that
        // recognises a magic at offset 0.
        MPEGAudioParser.probe,
    ]
}
