/// A track's boxes, located in the buffered `moov` (`trak`, ISO/IEC 14496-12 §8.3).
///
/// ```
/// tkhd (§8.3.2)  FullBox; v0: creation UInt32, modification UInt32, track_ID UInt32, …
///                         v1: creation UInt64, modification UInt64, track_ID UInt32, …
/// mdhd (§8.4.2)  FullBox; v0: creation UInt32, modification UInt32, timescale UInt32, duration UInt32
///                         v1: creation UInt64, modification UInt64, timescale UInt32, duration UInt64
///                then pad(1 bit) language(3 × 5 bits, each + 0x60) pre_defined UInt16
/// hdlr (§8.4.3)  FullBox; pre_defined UInt32 (QuickTime: component type 'mhlr'); handler_type 4 chars; …
/// stsd (§8.5.2)  FullBox; entry_count UInt32; entry_count sample entry boxes
/// tref (§8.3.3)  boxes of a reference type ('chap' …), each a list of track_ID UInt32
/// ```
struct MP4Track {
    var id: UInt32
    var handlerType: UInt32
    var timescale: UInt32
    var duration: UInt64
    var language: String?
    /// The sample entries (children of `stsd`).
    var sampleEntries: [MP4Box]
    /// The children of `stbl`.
    var sampleTableBoxes: [MP4Box]
    /// Track IDs referenced by `tref/chap` (QuickTime chapter tracks).
    var chapterTrackIDs: [UInt32]
    /// The `edts/elst` box, when present.
    var editList: MP4Box?
    /// The samples listed by the sample tables.
    var declaredSampleCount: Int64

    var isAudio: Bool { handlerType == MP4BoxType.soun }
}

/// Defaults for a track's fragments (`trex`, ISO/IEC 14496-12 §8.8.3):
/// FullBox; track_ID, default_sample_description_index, default_sample_duration, default_sample_size,
/// default_sample_flags (UInt32 each).
struct MP4TrackExtends: Equatable {
    var trackID: UInt32
    var defaultDuration: UInt32
    var defaultSize: UInt32
}

/// The movie box (`moov`, §8.2.1), buffered whole, with its tracks located.
///
/// ```
/// mvhd (§8.2.2)  FullBox; v0: creation UInt32, modification UInt32, timescale UInt32, duration UInt32
///                         v1: creation UInt64, modification UInt64, timescale UInt32, duration UInt64
/// ```
struct MP4Movie {
    /// The `moov` box's bytes (header included); every `MP4Box` below indexes into it. Emptied by
    /// `MP4Parser.releaseMovieBytes` once a movie that is not fragmented is published (nothing reads it after).
    var bytes: ArraySlice<UInt8>
    var timescale: UInt32 = 0
    var tracks: [MP4Track] = []
    /// `mvex` present: the samples come in movie fragments.
    var isFragmented = false
    var trackExtends: [UInt32: MP4TrackExtends] = [:]
    /// `moov/udta/meta` and `moov/meta` (iTunes metadata), `moov/udta/chpl` (Nero chapters).
    var metaBoxes: [MP4Box] = []
    var neroChapters: MP4Box?

    static func decode(
        _ bytes: ArraySlice<UInt8>, limits: ParserLimits, diagnostics: inout [String]
    ) throws(MP4BoxError) -> MP4Movie {
        var movie = MP4Movie(bytes: bytes)
        let headerSize: Int
        switch MP4BoxHeader.read(bytes, at: bytes.startIndex) {
        case .header(let h): headerSize = h.headerSize
        default: throw MP4BoxError(code: .invalidFile, reason: "mp4 (moov): bad header")
        }
        let children = try MP4BoxTree.children(
            bytes, in: (bytes.startIndex + headerSize)..<bytes.endIndex, parent: "moov", depth: 1, limits: limits,
            diagnostics: &diagnostics)
        if let mvhd = children.first(MP4BoxType.mvhd) {
            var r = ByteReader(bytes, mvhd.body)
            if let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8),
                let ts = r.readInteger(as: UInt32.self, endianness: .big)
            {
                movie.timescale = ts
            }
        }
        for child in children {
            switch child.type {
            case MP4BoxType.trak:
                if let track = try decodeTrack(bytes, child, limits: limits, diagnostics: &diagnostics) {
                    movie.tracks.append(track)
                }
            case MP4BoxType.mvex:
                movie.isFragmented = true
                let boxes = try MP4BoxTree.children(
                    bytes, in: child.body, parent: "mvex", depth: 2, limits: limits, diagnostics: &diagnostics)
                for trex in boxes where trex.type == MP4BoxType.trex {
                    var r = ByteReader(bytes, trex.body)
                    guard r.versionAndFlags() != nil, let id = r.readInteger(as: UInt32.self, endianness: .big),
                        r.skip(4), let d = r.readInteger(as: UInt32.self, endianness: .big),
                        let s = r.readInteger(as: UInt32.self, endianness: .big)
                    else { throw MP4BoxError(code: .invalidFile, reason: "mp4 (trex): box too short") }
                    movie.trackExtends[id] = MP4TrackExtends(trackID: id, defaultDuration: d, defaultSize: s)
                }
            case MP4BoxType.udta:
                let boxes = try MP4BoxTree.children(
                    bytes, in: child.body, parent: "udta", depth: 2, limits: limits, diagnostics: &diagnostics)
                movie.metaBoxes += boxes.filter { $0.type == MP4BoxType.meta }
                if let chpl = boxes.first(MP4BoxType.chpl) { movie.neroChapters = chpl }
            case MP4BoxType.meta:
                movie.metaBoxes.append(child)
            default:
                break
            }
        }
        return movie
    }

    private static func decodeTrack(
        _ bytes: ArraySlice<UInt8>, _ trak: MP4Box, limits: ParserLimits, diagnostics: inout [String]
    ) throws(MP4BoxError) -> MP4Track? {
        let trakBoxes = try MP4BoxTree.children(
            bytes, in: trak.body, parent: "trak", depth: 2, limits: limits, diagnostics: &diagnostics)
        var track = MP4Track(
            id: 0, handlerType: 0, timescale: 0, duration: 0, language: nil, sampleEntries: [],
            sampleTableBoxes: [], chapterTrackIDs: [], editList: nil, declaredSampleCount: 0)
        guard let tkhd = trakBoxes.first(MP4BoxType.tkhd) else {
            diagnostics.append("mp4 (trak): track without a track header (tkhd) ignored")
            return nil
        }
        var r = ByteReader(bytes, tkhd.body)
        guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8),
            let id = r.readInteger(as: UInt32.self, endianness: .big)
        else {
            throw MP4BoxError(code: .invalidFile, reason: "mp4 (tkhd): box too short")
        }
        track.id = id
        if let tref = trakBoxes.first(MP4BoxType.tref) {
            let refs = try MP4BoxTree.children(
                bytes, in: tref.body, parent: "tref", depth: 3, limits: limits, diagnostics: &diagnostics)
            for chap in refs where chap.type == MP4BoxType.chap {
                var r = ByteReader(bytes, chap.body)
                while let id = r.readInteger(as: UInt32.self, endianness: .big) { track.chapterTrackIDs.append(id) }
            }
        }
        if let edts = trakBoxes.first(MP4BoxType.edts) {
            let boxes = try MP4BoxTree.children(
                bytes, in: edts.body, parent: "edts", depth: 3, limits: limits, diagnostics: &diagnostics)
            track.editList = boxes.first(MP4BoxType.elst)
        }
        guard let mdia = trakBoxes.first(MP4BoxType.mdia) else {
            diagnostics.append("mp4 (trak): track \(id) without a media box (mdia) ignored")
            return nil
        }
        let mdiaBoxes = try MP4BoxTree.children(
            bytes, in: mdia.body, parent: "mdia", depth: 3, limits: limits, diagnostics: &diagnostics)
        if let mdhd = mdiaBoxes.first(MP4BoxType.mdhd) {
            var r = ByteReader(bytes, mdhd.body)
            guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8),
                let ts = r.readInteger(as: UInt32.self, endianness: .big),
                let duration = version == 1
                    ? r.readInteger(as: UInt64.self, endianness: .big)
                    : r.readInteger(as: UInt32.self, endianness: .big).map({ UInt64($0) }),
                let lang = r.readInteger(as: UInt16.self, endianness: .big)
            else { throw MP4BoxError(code: .invalidFile, reason: "mp4 (mdhd): box too short") }
            track.timescale = ts
            track.duration = duration
            let chars = [(lang >> 10) & 31, (lang >> 5) & 31, lang & 31]
            if lang != 0, chars.allSatisfy({ $0 >= 1 && $0 <= 26 }) {
                track.language = String(decoding: chars.map { UInt8($0 + 0x60) }, as: UTF8.self)
            }
        }
        if let hdlr = mdiaBoxes.first(MP4BoxType.hdlr) {
            var r = ByteReader(bytes, hdlr.body)
            if r.versionAndFlags() != nil, r.skip(4), let type = r.readInteger(as: UInt32.self, endianness: .big) {
                track.handlerType = type
            }
        }
        guard let minf = mdiaBoxes.first(MP4BoxType.minf) else { return track }
        let minfBoxes = try MP4BoxTree.children(
            bytes, in: minf.body, parent: "minf", depth: 4, limits: limits, diagnostics: &diagnostics)
        guard let stbl = minfBoxes.first(MP4BoxType.stbl) else { return track }
        track.sampleTableBoxes = try MP4BoxTree.children(
            bytes, in: stbl.body, parent: "stbl", depth: 5, limits: limits, diagnostics: &diagnostics)
        if let stsd = track.sampleTableBoxes.first(MP4BoxType.stsd) {
            guard stsd.body.count >= 8 else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (stsd): box too short")
            }
            track.sampleEntries = try MP4BoxTree.children(
                bytes, in: (stsd.bodyStart + 8)..<stsd.end, parent: "stsd", depth: 6, limits: limits,
                diagnostics: &diagnostics)
        }
        if let stsz = track.sampleTableBoxes.first(MP4BoxType.stsz) ?? track.sampleTableBoxes.first(MP4BoxType.stz2) {
            var r = ByteReader(bytes, stsz.body)
            if r.versionAndFlags() != nil, r.skip(4), let n = r.readInteger(as: UInt32.self, endianness: .big) {
                track.declaredSampleCount = Int64(n)
            }
        }
        return track
    }
}
