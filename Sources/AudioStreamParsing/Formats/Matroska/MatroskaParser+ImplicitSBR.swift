/// Implicitly signalled HE-AAC in `A_AAC` (ISO/IEC 14496-3 §1.6.5): CodecPrivate says AAC-LC at the core
/// rate, the blocks carry SBR data in fill elements. Only the first frame tells.
///
/// The header is published at the first Cluster (`dataOffset` = the Cluster). For a track whose
/// configuration allows implicit SBR (``AudioSpecificConfig/allowsImplicitSBR``) it is **held there until
/// the track's first frame is readable**: the Cluster's children are looked at in the input window without
/// consuming anything (`Timestamp`, other tracks' blocks, `BlockGroup`s entered, up to the first
/// `SimpleBlock`/`Block` of the track, its lacing decoded), and the first frame's raw data block is read
/// (`AudioSpecificConfig.reportedWithProblem(firstRawDataBlock:)`, shared with ADTS, LOAS and MP4). With
/// SBR the codec takes the HE-AAC layers (2 × core rate, 2048 frames per packet) before the header, so
/// every frame count, the Cues index and the seeks follow the output rate.
///
/// The look-ahead ends at a fixed place whatever the chunking: the frame found, an element that ends the
/// Cluster or cannot be read, or ``implicitSBRLookAhead`` bytes after the Cluster's start (the core is
/// then announced); a stream that ends first decides with what it held. So every chunking gives the same
/// events (docs/formats/matroska.md, "Implicit HE-AAC").
extension MatroskaParser {
    /// How far after the first Cluster's start the parsed track's first frame is looked for.
    static let implicitSBRLookAhead = 1 << 16

    /// At the first Cluster (its header at the window's position), before the header is published:
    /// `.needMoreData` while the parsed A_AAC track's first frame may still come within the look-ahead,
    /// else `nil` (``firstAACFrame`` set when found).
    mutating func holdForFirstFrame(_ context: inout ParseContext, cluster: EBMLHeader) -> ParseStep? {
        guard let track = selectedTrack(), track.codecID.hasPrefix("A_AAC"),
            (try? MatroskaAudioCodec.decode(track))?.audioSpecificConfig?.allowsImplicitSBR == true
        else { return nil }
        let clusterEnd = cluster.size.map { Int(clamping: $0) }
        // Resumed where the last call waited: the window has not moved, so the children before are the same
        // (rescanning them on every wait would be quadratic in the children of the look-ahead).
        let clusterStart = context.window.position
        let resume = firstFrameScanResume.flatMap { $0.cluster == clusterStart ? $0.at : nil }
        let start = resume ?? cluster.headerSize
        switch Self.firstFrame(of: track.number, in: context.window, from: start, clusterEnd: clusterEnd) {
        case .found(let frame):
            firstAACFrame = frame
        case .needMoreData(let n, let resume):
            if !context.window.isFinal {
                firstFrameScanResume = (clusterStart, resume)
                return .needMoreData(atLeast: n)
            }
        case .notFound:
            break
        }
        firstFrameScanResume = nil
        return nil
    }

    /// Reads ``firstAACFrame`` for implicit SBR and gives `codec` the HE-AAC layers when it has SBR.
    mutating func applyImplicitSBR(_ context: inout ParseContext, to codec: inout MatroskaAudioCodec) {
        guard let frame = firstAACFrame, let config = codec.audioSpecificConfig else { return }
        firstAACFrame = nil
        let report = config.reportedWithProblem(firstRawDataBlock: frame[...])
        if let problem = report.problem { context.diagnose(.inconsistentValues, .mkv("SimpleBlock"), problem) }
        guard report.config.extensionAudioObjectType != nil, let format = AACStreamFormat(report.config) else { return }
        codec.streamDescription = format.streamDescription
        codec.formatList = format.layeredFormatList
        if let layout = format.channelLayout { codec.channelLayout = layout }
    }

    enum FirstFrameSearch: Equatable {
        case found([UInt8])
        /// This many bytes after the window's position must be readable first; the scan resumes at the
        /// child that starts `resumeAt` bytes after it.
        case needMoreData(Int, resumeAt: Int)
        case notFound
    }

    /// The first frame of track `number` among the Cluster children that start `from` bytes after the
    /// window's position (the Cluster's end `clusterEnd` bytes after it, when known). Nothing is consumed.
    static func firstFrame(
        of number: UInt64, in window: InputWindow, from start: Int, clusterEnd: Int?
    ) -> FirstFrameSearch {
        let bound = min(clusterEnd ?? Int.max, implicitSBRLookAhead)
        var at = start
        func wait(_ n: Int) -> FirstFrameSearch { n <= bound ? .needMoreData(n, resumeAt: at) : .notFound }
        while at < bound {
            let header: EBMLHeader
            switch EBMLSyntax.peekHeader(in: window, at: at) {
            case .needMoreData(let n): return wait(at + n)
            case .invalid: return .notFound
            case .header(let h): header = h
            }
            // An element of unknown size or past the look-ahead: the frame cannot be within it.
            guard let bodySize = header.bodySize, bodySize <= Int64(bound) else { return .notFound }
            let body = Int(bodySize)
            let bodyStart = at + header.headerSize
            switch header.id {
            case MatroskaElementID.blockGroup:
                at = bodyStart  // its Block is looked at as the next element
            case MatroskaElementID.simpleBlock, MatroskaElementID.block:
                switch MatroskaBlock.decode(in: window, at: bodyStart, bodySize: body) {
                case .needMoreData(let n): return wait(bodyStart + n)
                case .invalid: return .notFound
                case .block(let block):
                    guard block.track == number else {
                        at = bodyStart + body
                        continue
                    }
                    guard let size = block.frameSizes.first else { return .notFound }
                    let frameStart = bodyStart + block.headerLength
                    guard let frame = window.peekBytes(at: frameStart, count: size) else {
                        return wait(frameStart + size)
                    }
                    return .found(frame)
                }
            default:
                // Timestamp, Position, PrevSize, Void, CRC-32, a BlockGroup's other children; an element of
                // the Segment's level or above ends the Cluster.
                if let level = MatroskaElementID.level(of: header.id), level <= 1 { return .notFound }
                at = bodyStart + body
            }
        }
        return .notFound
    }
}
