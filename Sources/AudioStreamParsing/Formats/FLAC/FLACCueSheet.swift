/// A FLAC CUESHEET metadata block (RFC 9639 §8.7), read for its track starts.
///
/// ```
/// bytes  field
///   128  media catalog number (ASCII, NUL padded)
///     8  lead-in samples
///     1  bit 7: is a CD; 7 bits reserved
///   258  reserved
///     1  number of tracks (the last is the lead-out: 170 on a CD, 255 otherwise)
///  per track (36 bytes + 12 per index point):
///     8  track offset in samples from the start of the stream
///     1  track number
///    12  ISRC (ASCII, NUL padded)
///     1  bit 7: non-audio; bit 6: pre-emphasis; 6 bits reserved
///    13  reserved
///     1  number of index points
///  per index point (12 bytes):
///     8  offset in samples from the track offset
///     1  index point number
///     3  reserved
/// ```
struct FLACCueSheet: Hashable, Sendable {
    struct Track: Hashable, Sendable {
        var number: UInt8
        /// Samples from the start of the stream to index point 1 (the track's audible start), or to
        /// the first index point when it has no index 1, or to the track offset without index points.
        var startSample: UInt64
        var isrc: String
        var isAudio: Bool
    }

    var mediaCatalogNumber: String
    var isCD: Bool
    /// The tracks without the lead-out.
    var tracks: [Track]
    /// The lead-out track's offset (the end of the last track).
    var leadOutSample: UInt64?

    /// Decodes a block body; `nil` when it is shorter than its track and index counts say.
    static func decode(_ body: [UInt8]) -> FLACCueSheet? {
        var r = ByteReader(body)
        guard let catalog = r.readBytes(128), r.skip(8), let flags = r.readUInt8(), r.skip(258),
            let trackCount = r.readUInt8()
        else { return nil }
        var sheet = FLACCueSheet(
            mediaCatalogNumber: TextDecoding.nulTerminated(catalog), isCD: flags & 0x80 != 0, tracks: [],
            leadOutSample: nil)
        for _ in 0..<trackCount {
            guard let offset = r.readInteger(as: UInt64.self, endianness: .big), let number = r.readUInt8(),
                let isrc = r.readBytes(12),
                let trackFlags = r.readUInt8(), r.skip(13), let indexCount = r.readUInt8()
            else { return nil }
            var start: UInt64?
            var first: UInt64?
            for _ in 0..<indexCount {
                guard let indexOffset = r.readInteger(as: UInt64.self, endianness: .big),
                    let indexNumber = r.readUInt8(), r.skip(3)
                else {
                    return nil
                }
                let (absolute, overflow) = offset.addingReportingOverflow(indexOffset)
                if overflow { return nil }
                if first == nil { first = absolute }
                if indexNumber == 1 { start = absolute }
            }
            if number == 170 || number == 255 {
                sheet.leadOutSample = offset
                continue
            }
            sheet.tracks.append(
                Track(
                    number: number, startSample: start ?? first ?? offset, isrc: TextDecoding.nulTerminated(isrc),
                    isAudio: trackFlags & 0x80 == 0))
        }
        return sheet
    }

    /// Chapters: one per track, titled "Track NN", from its start to the next track's start (the
    /// lead-out for the last one), in seconds at `sampleRate`.
    func chapters(sampleRate: UInt32) -> [AudioMetadata.Chapter] {
        guard sampleRate > 0 else { return [] }
        let rate = Double(sampleRate)
        return tracks.enumerated().map { i, track in
            let end = i + 1 < tracks.count ? tracks[i + 1].startSample : leadOutSample
            let number = track.number < 10 ? "0\(track.number)" : "\(track.number)"
            return AudioMetadata.Chapter(
                title: "Track \(number)", startSeconds: Double(track.startSample) / rate,
                endSeconds: end.map { Double($0) / rate })
        }
    }
}
