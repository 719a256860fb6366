/// A format parser that walks its chunks with a `ChunkWalker`: it says what each registered chunk
/// means (`handle`) and reads the bodies it asked for (`interpret`); `stepChunks` does the rest.
protocol ChunkContainerParser {
    /// The container whose chunks are walked.
    associatedtype Container: ChunkContainer

    /// The walk.
    var walker: ChunkWalker<Container> { get set }

    /// A registered chunk's header is at the position: read it (`ChunkWalker.read`), skip it
    /// (`ChunkWalker.skip`) or enter it (`ChunkWalker.enter`), or wait for more bytes.
    mutating func handle(
        _ chunk: ChunkHeader, _ role: Container.Role, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep

    /// The whole body of a chunk that `handle` read with `ChunkWalker.read`; the walker consumes it
    /// afterwards.
    mutating func interpret(
        _ chunk: ChunkHeader, _ role: Container.Role, _ body: [UInt8], _ context: inout ParseContext
    ) throws(AudioStreamError)
}

extension ChunkContainerParser {
    /// One step of the chunk walk: whatever the walker did, or the format's answer to a chunk header
    /// or a whole body.
    mutating func stepChunks(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch try walker.next(&context) {
        case .step(let step):
            return step
        case .chunk(let chunk, let role):
            return try handle(chunk, role, &context)
        case .body(let chunk, let role, let body):
            try interpret(chunk, role, body, &context)
            return walker.consumeBody(of: chunk, &context)
        }
    }
}
