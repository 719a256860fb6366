/// The movie box (`moov`, ISO/IEC 14496-12 §8.2.1), buffered whole, with its tracks located.
///
/// ```
/// moov
///   mvhd                 MP4MovieHeaderBox       the movie timescale
///   trak …               MP4Track                one per track
///   mvex                 (§8.8.1) present: the samples come in movie fragments
///     mehd               MP4MovieExtendsHeaderBox the whole presentation's duration (optional)
///     trex …             MP4TrackExtendsBox      per-track fragment defaults
///   udta
///     meta …             MP4ItemList             iTunes metadata
///     chpl               MP4ChapterListBox       Nero chapters
///   meta                 MP4ItemList             QuickTime metadata
/// ```
struct MP4Movie {
    /// The `moov` box's bytes (header included); every `MP4Box` below indexes into it. Emptied by
    /// `MP4Parser.releaseMovieBytes` once a movie that is not fragmented is published (nothing reads it after).
    var bytes: ArraySlice<UInt8>
    var timescale: UInt32 = 0
    var tracks: [MP4Track] = []
    /// `mvex` present: the samples come in movie fragments.
    var isFragmented = false
    var trackExtends: [UInt32: MP4TrackExtendsBox] = [:]
    /// `mvex/mehd`: the presentation's duration with every fragment, in `timescale` units, when given.
    var fragmentDuration: UInt64?
    /// `moov/udta/meta` and `moov/meta` (iTunes metadata), `moov/udta/chpl` (Nero chapters).
    var metaBoxes: [MP4Box] = []
    var neroChapters: MP4Box?

    /// Decodes a whole `moov` (header included).
    ///
    /// - Throws: `invalidFile` for a malformed box; `limitExceeded` past `maxNestingDepth`.
    static func decode(
        _ bytes: ArraySlice<UInt8>, limits: ParserLimits, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> MP4Movie {
        var movie = MP4Movie(bytes: bytes)
        let children = try MP4BoxTree.children(
            bytes, in: try MP4BoxTree.body(ofWholeBox: bytes, name: "moov"), parent: "moov", depth: 1,
            limits: limits, notes: &notes)
        if let mvhd = children.first(MP4BoxType.mvhd), let header = try? MP4MovieHeaderBox.decode(bytes[mvhd.body]) {
            movie.timescale = header.timescale
        }
        for child in children {
            switch child.type {
            case MP4BoxType.trak:
                if let track = try MP4Track.decode(bytes, child, limits: limits, notes: &notes) {
                    movie.tracks.append(track)
                }
            case MP4BoxType.mvex:
                movie.isFragmented = true
                let boxes = try MP4BoxTree.children(
                    bytes, in: child.body, parent: "mvex", depth: 2, limits: limits, notes: &notes)
                if let mehd = boxes.first(MP4BoxType.mehd) {
                    // Optional and only used for the end trimming: a damaged one is a note, not an error.
                    do throws(StructureError) {
                        movie.fragmentDuration = try MP4MovieExtendsHeaderBox.decode(bytes[mehd.body]).fragmentDuration
                    } catch {
                        notes.append(DiagnosticNote(error, whenInvalid: .structureSkipped))
                    }
                }
                for trex in boxes where trex.type == MP4BoxType.trex {
                    let defaults = try MP4TrackExtendsBox.decode(bytes[trex.body])
                    movie.trackExtends[defaults.trackID] = defaults
                }
            case MP4BoxType.udta:
                let boxes = try MP4BoxTree.children(
                    bytes, in: child.body, parent: "udta", depth: 2, limits: limits, notes: &notes)
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
}
