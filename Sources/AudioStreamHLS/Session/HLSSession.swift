/// Plays an HLS presentation without doing any I/O itself ("sans-I/O"): it says which resource it needs
/// (``HLSStep/fetch(_:)``), how long to wait (``HLSStep/wait(seconds:)``), and hands out each segment's bytes,
/// decrypted, in order (``HLSStep/data(_:)``). The caller fetches with whatever it has (AsyncHTTPClient,
/// URLSession, files, bytes in memory in tests) and owns the clock, so the same code serves the CLI, the
/// async API (``HLSEventSequence``) and deterministic tests.
///
/// Contract:
/// - Call ``next(now:)``; after a `.fetch`, call ``deliver(_:now:)`` with that resource's bytes or failure
///   before calling `next` again. `now` is a monotonic time in seconds (any origin).
/// - A master playlist is resolved with ``HLSSessionOptions/variantChoice``; a media playlist is played from
///   its first segment (VOD) or ``HLSSessionOptions/liveStartSegments`` before its end (live).
/// - `EXT-X-KEY METHOD=AES-128`: the key is fetched once per URI and each segment decrypted (IV from the tag
///   or the Media Sequence Number); `SAMPLE-AES` and other methods fail with
///   ``HLSError/unsupportedEncryption(method:segment:)`` at the first segment that uses them.
/// - `EXT-X-MAP`: the initialization section is handed out before the first segment that uses it, again
///   when it changes and after every discontinuity (a new parser needs it).
/// - Live: the playlist is reloaded one target duration after a reload that brought new segments, half of
///   one after a reload that did not (section 6.3.4); segments that fell out of the window before being
///   played are skipped and the next data `startsDiscontinuity`; no new segment for
///   ``HLSSessionOptions/stallTargetDurations`` target durations is ``HLSError/playlistStalled(url:seconds:)``.
/// - A failed fetch is retried after ``HLSSessionOptions/retryDelay`` up to
///   ``HLSSessionOptions/maxAttempts`` attempts, then ``HLSError/fetchFailed(url:attempts:reason:)``.
/// - Memory: the current playlist, the keys (at most 16), one segment's bytes.
public final class HLSSession {
    /// The options.
    public let options: HLSSessionOptions
    /// The URL (or path) given.
    public let url: String
    /// What was chosen from a master playlist (`nil` when the URL is a media playlist).
    public private(set) var selection: HLSSelection?
    /// The Media Playlist's URL.
    public private(set) var mediaPlaylistURL: String?
    /// The Media Playlist as last loaded.
    public private(set) var mediaPlaylist: HLSMediaPlaylist?
    /// Segments handed out so far.
    public private(set) var segmentsPlayed = 0
    /// Playlist reloads so far (live).
    public private(set) var reloads = 0

    private var pending: HLSResourceRequest?
    private var attempts = 0
    private var retryAt: Double?
    private var queued: [HLSSegmentData] = []
    private var keys: [String: [UInt8]] = [:]
    private var emittedMap: HLSMap?
    private var needsMap = true
    private var nextSequence: Int64?
    private var discontinuityPending = false
    private var nextStartTime = 0.0
    private var lastReload = 0.0
    private var lastNewSegment = 0.0
    private var reloadInterval = 0.0
    private var initBytes: [UInt8]?
    private var finished = false

    /// A session for the playlist at `url` (absolute, or a file path; segment URIs resolve against it).
    public init(url: String, options: HLSSessionOptions = HLSSessionOptions()) {
        self.url = url
        self.options = options
    }

    /// The next thing to do.
    public func next(now: Double) throws(HLSError) -> HLSStep {
        if !queued.isEmpty { return .data(queued.removeFirst()) }
        if finished { return .end }
        if let retryAt, let pending {
            if now < retryAt { return .wait(seconds: retryAt - now) }
            self.retryAt = nil
            return .fetch(pending)
        }
        if let pending { return .fetch(pending) }
        guard let playlist = mediaPlaylist, let playlistURL = mediaPlaylistURL else {
            return ask(HLSResourceRequest(url: url, kind: .playlist, maxBytes: options.limits.maxPlaylistBytes))
        }
        guard let first = playlist.segments.first else { return try awaitReload(now: now, playlist, playlistURL) }
        var sequence = nextSequence ?? startSequence(playlist)
        if sequence < first.sequenceNumber {  // fell out of the live window
            sequence = first.sequenceNumber
            discontinuityPending = true
        }
        nextSequence = sequence
        let index = Int(clamping: sequence - first.sequenceNumber)
        guard index < playlist.segments.count else { return try awaitReload(now: now, playlist, playlistURL) }
        let segment = playlist.segments[index]
        if let key = segment.key {
            guard key.method == "AES-128" else {
                throw .unsupportedEncryption(method: key.method, segment: segment.sequenceNumber)
            }
            let keyURL = HLSURL.resolve(key.uri ?? "", against: playlistURL)
            if keys[keyURL] == nil { return ask(HLSResourceRequest(url: keyURL, kind: .key, maxBytes: 1024)) }
        }
        if let map = segment.map, needsMap || map != emittedMap || segment.isDiscontinuity || discontinuityPending,
            initBytes == nil
        {
            return ask(
                HLSResourceRequest(
                    url: HLSURL.resolve(map.uri, against: playlistURL), byteRange: map.byteRange, kind: .initialization,
                    maxBytes: options.limits.maxSegmentBytes))
        }
        return ask(
            HLSResourceRequest(
                url: HLSURL.resolve(segment.uri, against: playlistURL), byteRange: segment.byteRange, kind: .segment,
                maxBytes: options.limits.maxSegmentBytes))
    }

    /// The next segment the session will ask for, when the playlist already lists it and no fetch is
    /// pending (for a caller that prefetches while it parses the segment just handed out; the session asks
    /// for it with an equal request later, after any key or initialization section it needs first).
    public var upcomingSegmentRequest: HLSResourceRequest? {
        guard pending == nil, let playlist = mediaPlaylist, let playlistURL = mediaPlaylistURL,
            let first = playlist.segments.first, let sequence = nextSequence
        else { return nil }
        let index = Int(clamping: sequence - first.sequenceNumber)
        guard playlist.segments.indices.contains(index) else { return nil }
        let segment = playlist.segments[index]
        return HLSResourceRequest(
            url: HLSURL.resolve(segment.uri, against: playlistURL), byteRange: segment.byteRange, kind: .segment,
            maxBytes: options.limits.maxSegmentBytes)
    }

    /// Hands over the resource asked for by the last `.fetch`.
    public func deliver(_ result: Result<[UInt8], HLSFetchFailure>, now: Double) throws(HLSError) {
        guard let request = pending else { return }
        let bytes: [UInt8]
        switch result {
        case .failure(let failure):
            attempts += 1
            guard attempts < options.maxAttempts else {
                throw .fetchFailed(url: request.url, attempts: attempts, reason: failure.reason)
            }
            retryAt = now + options.retryDelay
            return
        case .success(let b):
            bytes = b
        }
        guard bytes.count <= request.maxBytes else {
            throw .fetchFailed(
                url: request.url, attempts: attempts + 1, reason: "\(bytes.count) bytes (limit \(request.maxBytes))")
        }
        pending = nil
        attempts = 0
        switch request.kind {
        case .playlist, .mediaPlaylist:
            try loadPlaylist(bytes, request: request, now: now)
        case .key:
            guard bytes.count == 16 else {
                throw .decryptionFailed(
                    segment: nextSequence ?? 0, reason: "the key '\(request.url)' is \(bytes.count) bytes, not 16")
            }
            if keys.count >= 16 { keys.removeAll() }
            keys[request.url] = bytes
        case .initialization:
            initBytes = bytes
        case .segment:
            try segmentArrived(bytes)
        }
    }

    /// Moves to the segment that holds `seconds` (timeline of the loaded playlist: the sum of the durations
    /// from its first segment); the next data starts a discontinuity (with the initialization section).
    /// Only a playlist with `EXT-X-ENDLIST` (or `VOD`) can seek.
    public func seek(toTime seconds: Double) throws(HLSError) -> HLSSeekLanding {
        guard let playlist = mediaPlaylist else { throw .cannotSeek(reason: "the playlist is not loaded yet") }
        guard !playlist.isLive else { throw .cannotSeek(reason: "a live playlist cannot seek") }
        guard seconds.isFinite, seconds >= 0, seconds < playlist.totalDuration else {
            throw .cannotSeek(reason: "\(seconds) s is outside the presentation (0..<\(playlist.totalDuration) s)")
        }
        var start = 0.0
        for segment in playlist.segments {
            if seconds < start + segment.duration || segment == playlist.segments.last {
                nextSequence = segment.sequenceNumber
                nextStartTime = start
                queued.removeAll()
                pending = nil
                retryAt = nil
                attempts = 0
                initBytes = nil
                discontinuityPending = true
                finished = false
                return HLSSeekLanding(
                    sequenceNumber: segment.sequenceNumber, segmentStartTime: start, offsetInSegment: seconds - start)
            }
            start += segment.duration
        }
        throw .cannotSeek(reason: "empty playlist")
    }

    // MARK: - Internals

    private func ask(_ request: HLSResourceRequest) -> HLSStep {
        pending = request
        return .fetch(request)
    }

    /// The first segment to play: the first (VOD) or a few before the end (live).
    private func startSequence(_ playlist: HLSMediaPlaylist) -> Int64 {
        let first = playlist.segments.first?.sequenceNumber ?? playlist.mediaSequence
        guard playlist.isLive else { return first }
        return first + Int64(max(0, playlist.segments.count - max(1, options.liveStartSegments)))
    }

    private func awaitReload(now: Double, _ playlist: HLSMediaPlaylist, _ playlistURL: String) throws(HLSError)
        -> HLSStep
    {
        guard playlist.isLive else {
            finished = true
            return .end
        }
        let stall = options.stallTargetDurations * Double(max(1, playlist.targetDuration))
        if now - lastNewSegment >= stall { throw .playlistStalled(url: playlistURL, seconds: now - lastNewSegment) }
        let due = lastReload + reloadInterval
        if now < due { return .wait(seconds: min(due, lastNewSegment + stall) - now) }
        reloads += 1
        return ask(
            HLSResourceRequest(url: playlistURL, kind: .mediaPlaylist, maxBytes: options.limits.maxPlaylistBytes))
    }

    private func loadPlaylist(_ bytes: [UInt8], request: HLSResourceRequest, now: Double) throws(HLSError) {
        switch try HLSPlaylistParser.parse(bytes, url: request.url, limits: options.limits) {
        case .master(let master):
            guard request.kind == .playlist else {
                throw .invalidPlaylist(
                    url: request.url, line: 1, reason: "a master playlist where a media one was expected")
            }
            let chosen = try master.select(options.variantChoice, url: request.url)
            selection = chosen
            pending = HLSResourceRequest(
                url: HLSURL.resolve(chosen.uri, against: request.url), kind: .mediaPlaylist,
                maxBytes: options.limits.maxPlaylistBytes)
        case .media(let media):
            let oldLast = mediaPlaylist?.segments.last?.sequenceNumber
            let newLast = media.segments.last?.sequenceNumber
            let grew = oldLast == nil ? newLast != nil : (newLast ?? Int64.min) > oldLast!
            if mediaPlaylist == nil || grew { lastNewSegment = now }
            let target = Double(max(1, media.targetDuration))
            reloadInterval = grew || mediaPlaylist == nil ? target : target / 2
            lastReload = now
            mediaPlaylistURL = request.url
            mediaPlaylist = media
        }
    }

    private func segmentArrived(_ raw: [UInt8]) throws(HLSError) {
        guard let playlist = mediaPlaylist, let playlistURL = mediaPlaylistURL, let first = playlist.segments.first,
            let sequence = nextSequence
        else { return }
        let index = Int(clamping: sequence - first.sequenceNumber)
        guard playlist.segments.indices.contains(index) else { return }
        let segment = playlist.segments[index]
        var bytes = raw
        if let key = segment.key, let keyBytes = keys[HLSURL.resolve(key.uri ?? "", against: playlistURL)] {
            bytes = try SegmentDecryptor.decrypt(
                raw, key: keyBytes, iv: SegmentDecryptor.iv(for: key, sequenceNumber: segment.sequenceNumber),
                segment: segment.sequenceNumber)
        }
        var discontinuity = segment.isDiscontinuity || discontinuityPending
        if let initBytes, let map = segment.map {
            queued.append(
                HLSSegmentData(
                    bytes: initBytes, segment: segment, isInitialization: true, startsDiscontinuity: discontinuity,
                    startTime: nextStartTime, transportStreamTimestamp: nil))
            emittedMap = map
            needsMap = false
            discontinuity = false
        }
        initBytes = nil
        queued.append(
            HLSSegmentData(
                bytes: bytes, segment: segment, isInitialization: false, startsDiscontinuity: discontinuity,
                startTime: nextStartTime, transportStreamTimestamp: PackedAudioTimestamp.read(bytes)))
        discontinuityPending = false
        nextStartTime += segment.duration
        nextSequence = sequence + 1
        segmentsPlayed += 1
    }
}
