/// Media data before the movie box (a file not written for streaming, "moov at end").
///
/// Three behaviours (docs/formats/mp4.md, "moov after mdat"):
/// 1. `ParserOptions.bufferUnparsedMediaUpTo` > 0: the `mdat` is left in the input window (not consumed)
///    while the boxes after it are looked at; once the `moov` after it is readable it is decoded, and the
///    walk resumes at the `mdat`, emitting every packet. The bytes from the `mdat` to the `moov` must fit in
///    `bufferUnparsedMediaUpTo`, and with the `moov` in `limits.maxBufferedBytes`.
/// 2. Otherwise, or beyond that bound, with `ParserOptions.allowsByteRangeRequests`: the parser requests the
///    offset after the `mdat` (`requestedByteOffset`, `ParseStep.request`), walks on to the `moov`, then
///    requests the first `mdat`'s offset and produces every packet from there.
/// 3. Neither: `notOptimized` (`optm`) as Apple's parser, the error's offset being where the `moov` is needed
///    (the end of the `mdat`, or the `moov` itself when the look-ahead found it).
extension MP4Parser {
    mutating func mediaBeforeMovie(
        _ context: inout ParseContext, _ header: MP4BoxHeader
    ) throws(AudioStreamError) -> ParseStep {
        let start = context.window.position
        guard let size = header.size else {
            throw context.error(
                .invalidFile, .mp4("mdat"), "media data running to the end of the file before any movie box ('moov')")
        }
        let afterMedia = start + size
        if options.bufferUnparsedMediaUpTo > 0 {
            switch try lookAheadForMovie(&context, from: Int(size)) {
            case .found:
                releaseMovieBytes()
                return .continue
            case .needMoreData(let n): return .needMoreData(atLeast: n)
            case .tooFar(let moovAt):
                if !options.allowsByteRangeRequests {
                    throw context.error(
                        .notOptimized, at: moovAt ?? afterMedia, .mp4("mdat"),
                        "the movie box ('moov') follows more media than bufferUnparsedMediaUpTo "
                            + "(\(options.bufferUnparsedMediaUpTo) bytes) allows; it is needed from byte "
                            + "\(moovAt ?? afterMedia)")
                }
            }
        }
        if options.allowsByteRangeRequests {
            if mediaBeforeMovie == nil { mediaBeforeMovie = start }
            context.window.consume(header.headerSize)
            context.announce(.requestedByteOffset(afterMedia))
            return .request(afterMedia)
        }
        throw context.error(
            .notOptimized, at: afterMedia, .mp4("mdat"),
            "the movie box ('moov') is not before the media data; packets cannot be delimited in a "
                + "stream (it is needed from byte \(afterMedia); see ParserOptions.allowsByteRangeRequests and "
                + "bufferUnparsedMediaUpTo)")
    }

    enum LookAhead {
        case found
        case needMoreData(Int)
        /// The `moov` lies beyond the bounds (at this offset, when known).
        case tooFar(Int64?)
    }

    /// Walks the box headers after the `mdat` at the window's position without consuming anything; decodes
    /// the `moov` when it is readable.
    private mutating func lookAheadForMovie(
        _ context: inout ParseContext, from first: Int
    ) throws(AudioStreamError) -> LookAhead {
        let bound = min(options.bufferUnparsedMediaUpTo, context.limits.maxBufferedBytes)
        let start = context.window.position
        var at = first
        while true {
            if at > bound || at + 16 > context.limits.maxBufferedBytes { return .tooFar(nil) }
            guard at + 16 <= context.window.readable || context.window.isFinal else {
                return .needMoreData(at + 16)
            }
            let header: MP4BoxHeader
            switch MP4BoxSyntax.peekHeader(in: context.window, at: at) {
            case .needMoreData:
                if context.window.isFinal {
                    throw context.error(
                        .invalidFile, at: start + Int64(at), .mp4, "the stream ended before a movie box")
                }
                return .needMoreData(at + 16)
            case .invalid(let fault): throw context.error(fault.error, at: start + Int64(at))
            case .header(let h): header = h
            }
            guard let size = header.size else {
                throw context.error(
                    .invalidFile, at: start + Int64(at), .mp4(header.name), "a box runs to the end before the moov")
            }
            if header.type == MP4BoxType.moov {
                let total = Int64(at) + size
                guard total <= Int64(context.limits.maxBufferedBytes) else { return .tooFar(start + Int64(at)) }
                guard let bytes = context.window.peekBytes(at: at, count: Int(size)) else {
                    return .needMoreData(Int(total))
                }
                try readMovie(&context, bytes[...], at: start + Int64(at))
                return .found
            }
            guard Int64(at) + size <= Int64(bound) else { return .tooFar(nil) }
            at += Int(size)
        }
    }
}
