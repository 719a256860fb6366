/// `Cues` (RFC 9559 §5.1.5): the time index of a segment, and the `SeekHead` entry (§5.1.1) that says
/// where the Cues are when they follow the Clusters.
///
/// ```
///  Cues
///  └─ CuePoint                 (repeated, in time order)
///     ├─ CueTime               uint  the Cluster's (or block's) timestamp, in TimestampScale units
///     └─ CueTrackPositions     (one per track indexed at that time)
///        ├─ CueTrack           uint  TrackNumber
///        └─ CueClusterPosition uint  the Cluster's first byte, counted from the Segment's data start
///
///  SeekHead
///  └─ Seek                     (repeated)
///     ├─ SeekID                binary  the level-1 element's ID (0x1C53BB6B for Cues)
///     └─ SeekPosition          uint    its first byte, counted from the Segment's data start
/// ```
struct MatroskaCuePoint: Equatable {
    /// CueTime, in TimestampScale units.
    var time: UInt64
    /// The TrackNumber indexed.
    var track: UInt64
    /// CueClusterPosition: from the Segment's data start.
    var clusterPosition: UInt64
}

enum MatroskaCues {
    /// The cue points of every track, in time order; at most `limits.maxPacketTableEntries` (the rest are
    /// left out with a diagnostic). A CuePoint that does not decode is skipped with a diagnostic.
    static func decode(_ cues: EBMLMaster, depth: Int, limits: ParserLimits, notes: inout [DiagnosticNote])
        -> [MatroskaCuePoint]
    {
        var out: [MatroskaCuePoint] = []
        for point in cues.children where point.id == MatroskaElementID.cuePoint {
            guard let p = try? cues.master(point, depth: depth + 1, limits: limits),
                let time = p.unsigned(MatroskaElementID.cueTime)
            else {
                notes.append(DiagnosticNote(.damagedMetadata, .mkv("CuePoint"), "does not decode; skipped"))
                continue
            }
            for positions in p.children where positions.id == MatroskaElementID.cueTrackPositions {
                guard let t = try? p.master(positions, depth: depth + 2, limits: limits),
                    let track = t.unsigned(MatroskaElementID.cueTrack),
                    let cluster = t.unsigned(MatroskaElementID.cueClusterPosition)
                else { continue }
                guard out.count < limits.maxPacketTableEntries else {
                    notes.append(
                        DiagnosticNote(
                            .limitExceeded, .mkv("Cues"), "more cue points than maxPacketTableEntries; the rest ignored"
                        ))
                    return sorted(out)
                }
                out.append(MatroskaCuePoint(time: time, track: track, clusterPosition: cluster))
            }
        }
        return sorted(out)
    }

    private static func sorted(_ points: [MatroskaCuePoint]) -> [MatroskaCuePoint] {
        points.sorted { ($0.time, $0.clusterPosition) < ($1.time, $1.clusterPosition) }
    }

    /// The SeekPosition of the `Cues` listed in a SeekHead, when it lists them.
    static func cuesPosition(in seekHead: EBMLMaster, depth: Int, limits: ParserLimits) -> UInt64? {
        for seek in seekHead.children where seek.id == MatroskaElementID.seek {
            guard let s = try? seekHead.master(seek, depth: depth + 1, limits: limits),
                let id = s.body(MatroskaElementID.seekID), id.count <= 4,
                EBMLValue.unsigned(id) == UInt64(MatroskaElementID.cues)
            else { continue }
            if let position = s.unsigned(MatroskaElementID.seekPosition) { return position }
        }
        return nil
    }
}
