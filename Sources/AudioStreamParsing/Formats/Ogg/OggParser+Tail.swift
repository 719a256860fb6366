/// Head and tail: the stream's length from its header pages and its last pages only
/// (docs/formats/ogg.md, "Head and tail").
///
/// A scanner that wants an Ogg stream's length without reading its pages feeds the header until
/// `readyToProducePackets`, then the last bytes of the file with `.discontinuity`, then calls `finish`.
/// The length of an Ogg stream is its last page's granule position (RFC 3533 §6; RFC 7845 §4.5 for
/// Opus, Vorbis I §A.2): the head gives the granule base, the priming (Opus pre-skip, Vorbis's first
/// packet) and the rate; the tail gives the last granule position. `finish` then announces
/// `packetTableInfo` with those valid frames (`remainderFrames` 0: the packets between were not read),
/// the same value a whole parse announces for a stream whose last granule fits its packets; the facade
/// flags the duration estimated (`AudioStreamParser.estimatedDuration`): the pages between were not read,
/// so nothing says the stream has no gap, no later link and no granule that does not fit its packets.
///
/// Only the logical stream followed when the discontinuity came counts, and only when no new group of
/// beginning-of-stream pages started since: a tail whose pages belong to another link (a chained stream
/// whose last link has another serial number) or hold no granule position of the followed stream tells
/// nothing, and no trimming is announced.
struct OggTail {
    /// The followed stream's serial number when the discontinuity came.
    let serialNumber: UInt32
    /// `OggParser.groupCount` then: a new group since means a new link.
    let groupCount: Int
    /// A page of that stream with a granule position was read since.
    var granuleRead = false
}

extension OggParser {
    /// At `finish` after a discontinuity: announces the end trimming of the followed stream from the last
    /// granule position read after it (see `OggTail`), when it fits the header's priming.
    func announceTailTrimming(_ s: OggLogicalStream, _ context: inout ParseContext) {
        guard !seeked, let tail, tail.granuleRead, tail.serialNumber == s.serialNumber,
            tail.groupCount == groupCount, let format = s.announcedFormat, s.lastGranule >= 0
        else { return }
        let offset = s.clock?.framesBeforeGranuleZero ?? 0
        let (sinceBase, o1) = s.lastGranule.subtractingReportingOverflow(s.granuleBase ?? 0)
        let (covered, o2) = sinceBase.addingReportingOverflow(offset)
        guard !o1, !o2, covered >= format.primingFrames else {
            context.diagnose(
                .inconsistentValues, Self.ogg,
                "last granule position \(s.lastGranule) is before the end of the priming frames")
            return
        }
        let trim = PacketTableInfo(
            numberValidFrames: covered - format.primingFrames, primingFrames: Int32(clamping: format.primingFrames),
            remainderFrames: 0)
        context.announce(.packetTableInfo(trim))
        closeLastChapter(s, validFrames: trim.numberValidFrames, &context)
    }
}
