/// The public entry points that take or give raw pointers, kept in `Bytes/` with the only other code
/// that touches raw memory. Each turns the pointer into a `BorrowedBytes` view (or back) at once; the
/// rest of the library never sees the pointer.
///
/// The contract is the caller's side of `BorrowedBytes`' lifetime rule: a buffer given to `parse` or
/// `demux` must be valid for the duration of that call (and is not referenced afterwards); a buffer
/// given out by a `PacketBatch` is valid only during the packets handler call that received the batch.

extension AudioStreamParser {
    /// Parses the next bytes of the stream (`AudioFileStreamParseBytes`).
    ///
    /// Packets and properties are delivered through the listener and handler before this returns.
    /// The bytes must follow the previous ones, start at the offset a `seek` or range request
    /// returned, or be flagged `.discontinuity`. Any chunk size works, including 0.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes. They are not referenced after the call returns.
    ///   - flags: `.discontinuity` when the bytes do not follow the previous ones.
    /// - Throws: `AudioStreamError`; afterwards the parser is terminal.
    public func parse(_ bytes: UnsafeRawBufferPointer, flags: ParseFlags = []) throws(AudioStreamError) {
        try parse(borrowed: unsafe BorrowedBytes(bytes), flags: flags)
    }

    /// Parses the next bytes of the stream, given as a span (`Data.bytes`, `Array.span.bytes`, a
    /// swift-nio `ByteBuffer`'s readable bytes …). See `parse(_:flags:)`.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes, read in place. They are not referenced after the call returns.
    ///   - flags: `.discontinuity` when the bytes do not follow the previous ones.
    /// - Throws: `AudioStreamError`; afterwards the parser is terminal.
    public func parse(_ bytes: RawSpan, flags: ParseFlags = []) throws(AudioStreamError) {
        try unsafe bytes.withUnsafeBytes { (raw) throws(AudioStreamError) in
            try parse(borrowed: unsafe BorrowedBytes(raw), flags: flags)
        }
    }

    /// Parses the next bytes of the stream, given as a span of bytes (`Array.span`, `Data.span` …).
    /// See `parse(_:flags:)`.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes, read in place. They are not referenced after the call returns.
    ///   - flags: `.discontinuity` when the bytes do not follow the previous ones.
    /// - Throws: `AudioStreamError`; afterwards the parser is terminal.
    public func parse(_ bytes: Span<UInt8>, flags: ParseFlags = []) throws(AudioStreamError) {
        try unsafe bytes.withUnsafeBytes { (raw) throws(AudioStreamError) in
            try parse(borrowed: unsafe BorrowedBytes(raw), flags: flags)
        }
    }
}

extension PacketBatch {
    /// The batch's bytes, from the first packet's first byte to the last packet's last byte, as a raw
    /// pointer for C decoders. Borrowed: valid only during the handler call, which nothing checks; prefer
    /// ``withBytes(_:)``, whose `RawSpan` the compiler keeps inside the closure.
    public var bytes: UnsafeRawBufferPointer { unsafe storage.rawBuffer }

    /// The bytes of packet `index` (0-based within the batch) as a raw pointer for C decoders. Borrowed
    /// like ``bytes``; prefer ``withPacket(at:_:)``.
    public func packetBytes(at index: Int) -> UnsafeRawBufferPointer {
        let d = descriptions[index]
        let start = Int(d.startOffset)
        return unsafe storage.extracting(start..<(start + Int(d.dataByteSize))).rawBuffer
    }
}

extension PacketDescriptions {
    /// Calls `body` with the descriptions as a contiguous buffer of `AudioStreamPacketDescription`-layout
    /// values, for a decoder that takes that array (`AudioConverterFillComplexBuffer`'s
    /// `outDataPacketDescription`, …): ``PacketDescription`` is `mStartOffset` (`Int64`, offset 0),
    /// `mVariableFramesInPacket` (`UInt32`, offset 8), `mDataByteSize` (`UInt32`, offset 12), 16 bytes
    /// with 8-byte alignment, as CoreAudio's structure (a test checks the layout). On Apple platforms,
    /// rebind the memory: `buffer.withMemoryRebound(to: AudioStreamPacketDescription.self) { … }`.
    ///
    /// Stored descriptions are handed over in place; those of constant-size packets (computed on access)
    /// are first written into a temporary array of `count` values. The buffer is valid only during `body`.
    public func withUnsafeBufferPointer<R, E: Error>(
        _ body: (UnsafeBufferPointer<PacketDescription>) throws(E) -> R
    ) throws(E) -> R {
        var outcome: Result<R, E>?
        switch storage {
        case .explicit(let slice):
            unsafe slice.withUnsafeBufferPointer { buffer in
                outcome = Result { () throws(E) -> R in try unsafe body(buffer) }
            }
        case .constant:
            unsafe Array(self).withUnsafeBufferPointer { buffer in
                outcome = Result { () throws(E) -> R in try unsafe body(buffer) }
            }
        }
        // Safe to force unwrap: the branch taken ran `body`.
        return try outcome!.get()
    }

    /// Calls `body` with the descriptions as a contiguous, bounds-checked `Span` that cannot escape
    /// `body`; see ``withUnsafeBufferPointer(_:)`` for the layout and the constant-size case.
    public func withSpan<R, E: Error>(_ body: (Span<PacketDescription>) throws(E) -> R) throws(E) -> R {
        try unsafe withUnsafeBufferPointer { (buffer) throws(E) -> R in try body(unsafe Span(_unsafeElements: buffer)) }
    }
}

extension ICYMetadataDemuxer {
    /// Splits the next chunk of the body.
    ///
    /// - Returns: the chunk's audio ranges (offsets into `chunk`) and completed metadata blocks, in
    ///   body order.
    public mutating func demux(_ chunk: UnsafeRawBufferPointer) -> [Segment] {
        demux(borrowed: unsafe BorrowedBytes(chunk))
    }
}
