/// A frame-sync stream format as the frame-sync engine sees it: how a frame is recognised at a sync
/// byte (its header decoded, then confirmed by what follows it).
///
/// Frame-sync streams (MPEG audio, ADTS, FLAC frames; AC-3/E-AC-3, AMR and MPEG-TS packets next) have
/// no container around their frames: a frame is found by a sync pattern, and the only proof that a
/// sync pattern starts a frame is the frame after it. The engine (``FrameSyncSearch``, ``JunkRun``,
/// ``FrameBoundaryTags``, ``FrameOffsetTable``, ``FrameSyncParser``) does what every such format does
/// alike: the resumable search with its scan memo, junk accounting and its diagnostics, tags between
/// frames, the per-packet offset table and the fast-path hook. A conformance says what differs:
///
/// - ``syncByte``: the first byte of every frame (0xFF for MPEG audio, ADTS and FLAC; 0x0B for
///   AC-3, 0x47 for an MPEG-TS packet). The search jumps from one to the next with `memchr`.
/// - ``examine(_:at:horizon:)``: the header decoded at a sync byte and the format's confirmation
///   rules (the next header agrees; MPEG's free format measured to the next header; ADTS's successor
///   may be a tag or the end of the stream; FLAC's frame header alone, its frame confirmed by the
///   header chain or the CRC-16 afterwards).
/// - ``stopsAtTags``: whether an ID3v2 tag in the bytes searched ends the search (ADTS: timed metadata
///   anywhere; MPEG audio looks for tags in the junk after the frame search, ``FrameBoundaryTags``).
///
/// The conforming values are small and carry what the rules depend on (the free-format frame size of
/// the stream, FLAC's STREAMINFO), so a content probe can search with a fresh one.
protocol FrameSyncFormat {
    /// What a confirmed candidate gives: the header (and the frame length when the header alone does
    /// not say it).
    associatedtype Frame

    /// The first byte of every frame.
    static var syncByte: UInt8 { get }

    /// The bytes a candidate needs before it is examined: the search waits for them (or, at the end of
    /// the stream or past the horizon, stops). 1 when ``examine(_:at:horizon:)`` decides on partial
    /// headers itself.
    static var headerByteCount: Int { get }

    /// Whether the search also stops at an ID3v2 tag header (``FrameSyncCandidate/tag``).
    var stopsAtTags: Bool { get }

    /// Decides whether a frame starts `offset` bytes after the window's position (the byte there is
    /// ``syncByte``, or an `I` when ``stopsAtTags``).
    ///
    /// - Parameter horizon: no decision may look at bytes at or after this offset: what it would need
    ///   there counts as a rejection (the probes pass the detection look-ahead, so that their answer
    ///   depends only on those bytes, never on how they were chunked).
    func examine(_ window: InputWindow, at offset: Int, horizon: Int) -> FrameSyncCandidate<Frame>
}

extension FrameSyncFormat {
    var stopsAtTags: Bool { false }
}

/// What ``FrameSyncFormat/examine(_:at:horizon:)`` decided about one candidate.
enum FrameSyncCandidate<Frame> {
    /// A confirmed frame starts there.
    case frame(Frame)
    /// An ID3v2 tag header starts there (only when the format ``FrameSyncFormat/stopsAtTags``).
    case tag
    /// Not a frame. `reason` says why a sync pattern was rejected (counted by ``JunkRun``); `nil` when
    /// there was no sync pattern at all. A value whose `description` is the text: the text of the first
    /// rejection of a run is made only when the run is reported (a scan over MPEG frames rejects every
    /// frame header as ADTS: making each text cost a detection more than the rest of it).
    case rejected(reason: (any CustomStringConvertible)?)
    /// This many bytes after the window's position are needed to decide (more than are readable).
    case needMoreData(atLeast: Int)
}
