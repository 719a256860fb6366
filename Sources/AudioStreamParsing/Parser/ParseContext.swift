/// What a format parser works with during one step: the readable input, and the events it emits.
///
/// Format parsers read through `window` (peek, validate, then `consume`), and report through
/// `announce`, `publishHeader`, `diagnose` and the `emitPacket…` methods. Events are queued here and
/// delivered by the facade between steps, in the order they were emitted, so a callback never runs
/// while a format parser is in the middle of a step.
///
/// Packets are batched: consecutive packets that lie in the same storage segment (the caller's chunk
/// or the parser's carry-over buffer) form one `PacketBatch` handed out zero-copy. Only a packet that
/// straddles the two segments is assembled, once, into a scratch buffer.
struct ParseContext {
    /// The readable bytes.
    var window = InputWindow()
    /// The limits in force.
    let limits: ParserLimits
    /// The container being parsed, for error messages.
    var fileType: AudioFileType?
    /// The file type hint the parser was created with (for detection after a prefix such as ID3v2).
    var fileTypeHint: AudioFileType?
    /// Metadata found before the container (leading ID3v2 tags). `publishHeader` announces it with
    /// the container's header, and every `.metadata` value announced is merged after it.
    var leadingMetadata: AudioMetadata?
    /// The index of the next packet to be emitted.
    var nextPacketIndex: Int64 = 0
    /// Whether `nextPacketIndex` counts on from an estimated seek landing rather than from a known
    /// packet (copied into every batch as `PacketBatch.isIndexEstimated`). Set by the facade's `seek`;
    /// change it with `setIndicesEstimated(_:)`, which ends the open batch.
    private(set) var indicesEstimated = false
    /// The last seek's landing and, once known, its true index.
    private(set) var seekLanding: SeekLanding?
    /// Every packet since the last seek was emitted (no discontinuity since): `emittedPackets` counts
    /// from the landing, so a total count can place it.
    private var emittedSinceLanding = false
    /// The latest value of every property announced so far (ahead of delivery).
    private(set) var announced = StreamProperties()

    /// Totals of what was emitted since the last seek.
    private(set) var emittedPackets: Int64 = 0
    private(set) var emittedBytes: Int64 = 0
    private(set) var emittedFrames: Int64 = 0

    // Queued events, and the storage their packet runs refer to.
    private(set) var events: [Event] = []
    private(set) var descriptions: [PacketDescription] = []
    private(set) var scratch: [UInt8] = []
    private var openRun: PacketRun?
    /// The chunk index where `openRun` starts when it is an explicit run in the chunk, else -1 (lets
    /// `emitPacketInChunk` extend it without inspecting the run).
    private var openChunkRunStart = -1

    /// How many more bytes the next `parse` calls may simply keep, without a step or a delivery: set by
    /// the facade at the end of a `parse` that left the parser waiting for more bytes in a plain state (no
    /// error, skip, seek, request or finish pending); 0 otherwise (every other entry point resets it).
    var absorbableBytes = 0

    init(limits: ParserLimits) {
        self.limits = limits
    }

    /// Keeps `bytes` as carried-over input when they are fewer than `absorbableBytes`; true when it did.
    @inline(__always)
    mutating func absorbIfShort(_ bytes: BorrowedBytes) -> Bool {
        guard bytes.count < absorbableBytes else { return false }
        absorbableBytes -= bytes.count
        window.absorb(bytes)
        return true
    }

    // MARK: Errors and diagnostics

    /// An error at the current position (or at `offset`), for the container being parsed.
    func error(_ code: AudioStreamError.Code, at offset: Int64? = nil, _ reason: String) -> AudioStreamError {
        AudioStreamError(code, at: offset ?? window.position, format: fileType, reason)
    }

    /// `error` placed at the current position (or at `offset`).
    func error(_ error: StructureError, at offset: Int64? = nil) -> AudioStreamError {
        AudioStreamError(error.code, at: offset ?? window.position, format: fileType, error.reason)
    }

    /// An error about `structure` at the current position (or at `offset`).
    func error(
        _ code: AudioStreamError.Code, at offset: Int64? = nil, _ structure: Structure, _ text: String
    ) -> AudioStreamError {
        AudioStreamError(code, at: offset ?? window.position, format: fileType, structure.message(text))
    }

    /// Reports a recoverable oddity of `kind` with a message already prefixed.
    mutating func diagnose(_ kind: ParserDiagnostic.Kind, at offset: Int64? = nil, _ message: String) {
        closeRun()
        events.append(.diagnostic(ParserDiagnostic(kind, at: offset ?? window.position, message)))
    }

    /// Reports a recoverable oddity of `kind` about `structure`.
    mutating func diagnose(
        _ kind: ParserDiagnostic.Kind, at offset: Int64? = nil, _ structure: Structure, _ text: String
    ) {
        diagnose(kind, at: offset, structure.message(text))
    }

    // MARK: Properties

    /// Announces `value` if it differs from the last announced value of the same property
    /// (`readyToProducePackets` is announced once).
    mutating func announce(_ value: AudioStreamPropertyValue) {
        var value = value
        if let leading = leadingMetadata, case .metadata(let metadata) = value {
            value = .metadata(leading.merging(metadata))
        }
        if announced.value(of: value.id) == value { return }
        closeRun()
        announced.apply(value)
        events.append(.property(value))
    }

    /// Announces the properties known when the audio data is reached, in the listener order Apple
    /// clients expect, then `dataOffset` and `readyToProducePackets`.
    ///
    /// When `values` has a `dataFormat` but no `formatList`, the format list is the one item CoreAudio
    /// reports by default: the data format with the channel layout's tag (or 0).
    mutating func publishHeader(_ values: [AudioStreamPropertyValue], dataOffset: Int64) {
        var values = values
        if !values.contains(where: { $0.id == .formatList }),
            let format = values.lazy.compactMap({ v -> StreamDescription? in
                if case .dataFormat(let d) = v { return d } else { return nil }
            }).first
        {
            let tag =
                values.lazy.compactMap({ v -> ChannelLayout.Tag? in
                    if case .channelLayout(let l) = v { return l.tag } else { return nil }
                }).first ?? .noLayout
            values.append(.formatList([FormatListItem(streamDescription: format, channelLayoutTag: tag)]))
        }
        if leadingMetadata != nil, !values.contains(where: { $0.id == .infoDictionary }) {
            // `announce` merges the leading metadata into this empty value.
            values.append(.metadata(AudioMetadata()))
        }
        for value in values.sorted(by: { $0.announcementOrder < $1.announcementOrder }) {
            announce(value)
        }
        announce(.dataOffset(dataOffset))
        announce(.readyToProducePackets)
    }

    // MARK: Packet positions

    /// Marks the packets emitted from now on as numbered from an estimated landing (or not). A batch
    /// never mixes the two: the open one ends when the state changes.
    mutating func setIndicesEstimated(_ estimated: Bool) {
        guard estimated != indicesEstimated else { return }
        closeRun()
        indicesEstimated = estimated
    }

    /// A seek to `packet` (labelled so whether or not the offset was estimated).
    mutating func beginSeekLanding(at packet: Int64, isEstimated: Bool) {
        setIndicesEstimated(isEstimated)
        seekLanding = SeekLanding(labelledIndex: packet, trueIndex: isEstimated ? nil : packet)
        emittedSinceLanding = true
    }

    /// A discontinuity without a seek: packets between the landing and here were lost, so a total count
    /// no longer places the landing.
    mutating func loseSeekLandingCount() {
        emittedSinceLanding = false
    }

    /// A format parser found that the next packet is packet `index` (a FLAC frame number) after an
    /// estimated seek: it relabels `nextPacketIndex` and calls this. Indices are exact from here on; the
    /// landing's true index is known when nothing was emitted since the seek.
    mutating func correctIndices(nextPacketIndex index: Int64) {
        if var landing = seekLanding, landing.trueIndex == nil, emittedPackets == 0 {
            landing.trueIndex = index
            seekLanding = landing
        }
        nextPacketIndex = index
        setIndicesEstimated(false)
    }

    /// The stream ended after an estimated landing with every packet since delivered: `total` packets in
    /// all (a declared count), so the landing was packet `total − emittedPackets`. Returns it when that
    /// places the landing (not before packet 0).
    mutating func placeSeekLanding(totalPackets total: Int64) -> SeekLanding? {
        guard indicesEstimated, emittedSinceLanding, var landing = seekLanding, landing.trueIndex == nil,
            total >= emittedPackets
        else { return nil }
        landing.trueIndex = total - emittedPackets
        seekLanding = landing
        return landing
    }

    // MARK: Packets

    /// Emits `count` back-to-back packets of `size` bytes each, starting at the current position, and
    /// consumes them. The bytes must be readable.
    mutating func emitPackets(count: Int, size: Int, framesPerPacket: UInt32) {
        assert(size > 0 && count <= window.readable / max(size, 1), "emitPackets: bytes not readable")
        guard count > 0, size > 0 else { return }
        // Never emit bytes that are not there, even if a format parser miscounted.
        let count = min(count, window.readable / size)
        var left = count
        while left > 0 {
            switch window.segment(at: 0, count: size) {
            case .pending(let index):
                let n = min(left, window.pendingRemaining / size)
                appendConstant(.pending(index), count: n, size: size)
                left -= n
            case .chunk(let index):
                let n = min(left, window.readable / size)
                appendConstant(.chunk(index), count: n, size: size)
                left -= n
            case .straddling:
                appendStraddling(size: size, frames: 0)
                left -= 1
            }
        }
        emittedFrames += Int64(count) * Int64(framesPerPacket)
    }

    /// Emits one packet of `size` bytes at the current position and consumes it. The bytes must be
    /// readable. `variableFrames` is the packet's frame count when the format's frames per packet
    /// vary, otherwise 0; `frames` is its frame count for the running totals.
    mutating func emitPacket(size: Int, variableFrames: UInt32, frames: Int64) {
        assert(size >= 0 && size <= window.readable, "emitPacket: bytes not readable")
        guard size >= 0, size <= window.readable else { return }
        switch window.segment(at: 0, count: size) {
        case .pending(let index): appendExplicit(.pending(index), size: size, frames: variableFrames)
        case .chunk(let index): appendExplicit(.chunk(index), size: size, frames: variableFrames)
        case .straddling: appendStraddling(size: size, frames: variableFrames)
        }
        emittedFrames += frames
    }

    /// The fast path of `emitPacket(size:variableFrames:frames:)` for a packet whose bytes lie in the
    /// caller's chunk: the window must have no readable pending bytes (`window.chunkCursor != nil`) and
    /// `size` bytes must be readable. Extends the open batch with one description when it is an explicit
    /// batch in the chunk; otherwise behaves exactly like `emitPacket`.
    @inline(__always)
    mutating func emitPacketInChunk(size: Int, variableFrames: UInt32, frames: Int64) {
        let index = window.chunkRead
        guard openChunkRunStart >= 0, window.pendingRemaining == 0, size >= 0, size <= window.chunkRemaining else {
            emitPacket(size: size, variableFrames: variableFrames, frames: frames)
            return
        }
        let offset = index - openChunkRunStart
        descriptions.append(
            PacketDescription(
                startOffset: Int64(offset), variableFramesInPacket: variableFrames, dataByteSize: UInt32(size)))
        // Safe to force unwrap: `openChunkRunStart >= 0` only while an explicit chunk run is open.
        openRun!.count += 1
        openRun!.byteCount = offset + size
        countEmitted(packets: 1, bytes: size)
        emittedFrames += frames
        window.consumeChunk(size)
    }

    /// Opens an explicit batch in the caller's chunk for a fast path that emits a run of packets lying in
    /// the chunk (or keeps the open batch when it is one), and returns the chunk index that the run's
    /// description offsets count from. The run's first packet starts at chunk index `packetStart`, at or
    /// after the window's position; nothing is consumed. The window must have no readable pending bytes
    /// (`window.chunkCursor != nil`). Follow with one `appendChunkRunPacket` per packet, in stream order,
    /// then one `endChunkRun`: together they queue what `emitPacketInChunk` of each packet would.
    mutating func beginChunkRun(firstPacketAt packetStart: Int) -> Int {
        if openChunkRunStart >= 0 { return openChunkRunStart }
        closeRun()
        openRun = PacketRun(
            source: .chunk(packetStart), kind: .explicit, count: 0, byteCount: 0, firstPacketIndex: nextPacketIndex,
            fileOffset: window.chunkBase + Int64(packetStart), descriptionStart: descriptions.count,
            indexEstimated: indicesEstimated)
        openChunkRunStart = packetStart
        return packetStart
    }

    /// Describes the next packet of a run opened by `beginChunkRun`: `offset` is its start's chunk index
    /// less the index `beginChunkRun` returned; `size` bytes (not above `UInt32.max`).
    @inline(__always)
    mutating func appendChunkRunPacket(offset: Int, size: Int, variableFrames: UInt32) {
        descriptions.append(
            PacketDescription(
                startOffset: Int64(offset), variableFramesInPacket: variableFrames,
                dataByteSize: UInt32(truncatingIfNeeded: size)))
    }

    /// Ends a run opened by `beginChunkRun`: `count` packets (at least one) of `bytes` bytes and `frames`
    /// frames in all were appended, the last ending at chunk index `end`; the window is consumed up to
    /// chunk index `index` (at or after `end`).
    mutating func endChunkRun(count: Int, bytes: Int, frames: Int64, end: Int, consumingTo index: Int) {
        // Safe to force unwrap: `beginChunkRun` left an explicit chunk run open.
        openRun!.count += count
        openRun!.byteCount = end - openChunkRunStart
        countEmitted(packets: count, bytes: bytes)
        emittedFrames += frames
        window.consumeChunk(index - window.chunkRead)
    }

    /// Emits one packet whose bytes the format parser assembled itself because they are not contiguous
    /// in the stream (an Ogg packet continued across pages: page headers lie between its pieces). The
    /// bytes are copied once into the scratch buffer; `fileOffset` is the absolute offset of the packet's
    /// first byte. Nothing is consumed.
    mutating func emitAssembledPacket(_ bytes: [UInt8], fileOffset: Int64, variableFrames: UInt32, frames: Int64) {
        closeRun()
        let start = scratch.count
        scratch.append(contentsOf: bytes)
        let description = PacketDescription(
            startOffset: 0, variableFramesInPacket: variableFrames, dataByteSize: UInt32(bytes.count))
        descriptions.append(description)
        events.append(
            .packets(
                PacketRun(
                    source: .scratch(start), kind: .explicit, count: 1, byteCount: bytes.count,
                    firstPacketIndex: nextPacketIndex, fileOffset: fileOffset,
                    descriptionStart: descriptions.count - 1, indexEstimated: indicesEstimated)))
        countEmitted(packets: 1, bytes: bytes.count)
        emittedFrames += frames
    }

    private mutating func appendConstant(_ source: PacketRun.Source, count: Int, size: Int) {
        let bytes = count * size
        if var run = openRun, case .constant(let runSize) = run.kind, runSize == size,
            run.source.follows(source, byteCount: run.byteCount)
        {
            run.count += count
            run.byteCount += bytes
            openRun = run
        } else {
            closeRun()
            openRun = PacketRun(
                source: source, kind: .constant(size: size), count: count, byteCount: bytes,
                firstPacketIndex: nextPacketIndex, fileOffset: window.position, descriptionStart: 0,
                indexEstimated: indicesEstimated)
        }
        countEmitted(packets: count, bytes: bytes)
        window.consume(bytes)
    }

    private mutating func appendExplicit(_ source: PacketRun.Source, size: Int, frames: UInt32) {
        if var run = openRun, case .explicit = run.kind, let gap = run.source.gap(to: source, byteCount: run.byteCount)
        {
            descriptions.append(
                PacketDescription(
                    startOffset: Int64(run.byteCount + gap), variableFramesInPacket: frames,
                    dataByteSize: UInt32(size)))
            run.count += 1
            run.byteCount += gap + size
            openRun = run
        } else {
            closeRun()
            descriptions.append(
                PacketDescription(startOffset: 0, variableFramesInPacket: frames, dataByteSize: UInt32(size)))
            openRun = PacketRun(
                source: source, kind: .explicit, count: 1, byteCount: size, firstPacketIndex: nextPacketIndex,
                fileOffset: window.position, descriptionStart: descriptions.count - 1, indexEstimated: indicesEstimated)
            if case .chunk(let start) = source { openChunkRunStart = start }
        }
        countEmitted(packets: 1, bytes: size)
        window.consume(size)
    }

    /// A packet whose bytes lie partly in the carry-over buffer and partly in the chunk: copied once.
    private mutating func appendStraddling(size: Int, frames: UInt32) {
        closeRun()
        let start = scratch.count
        window.withContiguousSegments(at: 0, count: size) { scratch.append(contentsOf: $0) }
        descriptions.append(
            PacketDescription(startOffset: 0, variableFramesInPacket: frames, dataByteSize: UInt32(size)))
        events.append(
            .packets(
                PacketRun(
                    source: .scratch(start), kind: .explicit, count: 1, byteCount: size,
                    firstPacketIndex: nextPacketIndex, fileOffset: window.position,
                    descriptionStart: descriptions.count - 1, indexEstimated: indicesEstimated)))
        countEmitted(packets: 1, bytes: size)
        window.consume(size)
    }

    private mutating func countEmitted(packets: Int, bytes: Int) {
        nextPacketIndex += Int64(packets)
        emittedPackets += Int64(packets)
        emittedBytes += Int64(bytes)
    }

    /// Ends the batch being built, queueing it as an event.
    mutating func closeRun() {
        if let run = openRun {
            events.append(.packets(run))
            openRun = nil
            openChunkRunStart = -1
        }
    }

    // MARK: Delivery (used by the facade)

    /// Whether enough has been queued that the facade should deliver now.
    var shouldDeliver: Bool { events.count >= 32 || !scratch.isEmpty }

    /// Whether anything waits for delivery (when not, the storage is already recycled: descriptions and
    /// scratch bytes exist only for queued or open batches).
    var hasQueuedEvents: Bool { !events.isEmpty || openRun != nil }

    /// Takes the queued events (closing the open batch). The facade delivers them, then calls
    /// `recycle(_:)` so buffers keep their capacity.
    mutating func takeEvents() -> [Event] {
        closeRun()
        var taken: [Event] = []
        swap(&taken, &events)
        return taken
    }

    /// Returns delivered storage for reuse.
    mutating func recycle(_ delivered: inout [Event]) {
        delivered.removeAll(keepingCapacity: true)
        if events.isEmpty { swap(&events, &delivered) }
        descriptions.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: scratch.capacity <= 1 << 20)
    }

    /// Forgets per-position state after a seek or discontinuity (queued events stay).
    mutating func resetEmissionTotals() {
        emittedPackets = 0
        emittedBytes = 0
        emittedFrames = 0
    }

    /// A queued event.
    enum Event {
        case property(AudioStreamPropertyValue)
        case packets(PacketRun)
        case diagnostic(ParserDiagnostic)
    }
}

/// A batch of packets waiting for delivery: where its bytes are, and how its packets are described.
struct PacketRun {
    enum Source: Equatable {
        case pending(Int)
        case chunk(Int)
        case scratch(Int)

        /// True when `next` starts right where a run of `byteCount` bytes from `self` ends.
        func follows(_ next: Source, byteCount: Int) -> Bool { gap(to: next, byteCount: byteCount) == 0 }

        /// The bytes between the end of a run of `byteCount` bytes from `self` and `next`, when `next`
        /// is in the same segment at or after that end.
        func gap(to next: Source, byteCount: Int) -> Int? {
            switch (self, next) {
            case (.pending(let a), .pending(let b)), (.chunk(let a), .chunk(let b)):
                let g = b - (a + byteCount)
                return g >= 0 ? g : nil
            default:
                return nil
            }
        }
    }

    enum Kind {
        case constant(size: Int)
        case explicit
    }

    var source: Source
    var kind: Kind
    var count: Int
    var byteCount: Int
    var firstPacketIndex: Int64
    var fileOffset: Int64
    /// Index of the first description in `ParseContext.descriptions` (explicit runs).
    var descriptionStart: Int
    /// `ParseContext.indicesEstimated` when the run was opened (`PacketBatch.isIndexEstimated`).
    var indexEstimated: Bool
}
