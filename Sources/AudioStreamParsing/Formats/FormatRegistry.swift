/// The containers this library recognises, as content probes, in the order they are asked.
enum FormatRegistry {
    static let probes: [FormatProbe] = [
        WAVEParser.probe,
        AIFFParser.probe,
        CAFParser.probe,
        NeXTParser.probe,
        ADTSParser.probe,
    ]
}
