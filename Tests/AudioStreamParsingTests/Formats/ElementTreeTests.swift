import Testing

@testable import AudioStreamParsing

/// The element-tree engine (`Sources/AudioStreamParsing/Formats/ElementTree/`): the walker's rules with
/// MP4's syntax, the registry, and a toy syntax whose elements of unknown size end at the next element
/// that may not be their descendant (the EBML rule, RFC 8794 §6.2), to show that another syntax plugs in.
@Suite("Element tree")
struct ElementTreeTests {
    // MARK: MP4 through the engine

    @Test func mp4TopLevelRegistryHasNoDuplicateTypes() {
        #expect(MP4Parser.topLevelBoxes.duplicates.isEmpty)
        #expect(MP4Parser.topLevelBoxes[MP4BoxType.moov] == .container(.movie, limit: .buffered))
        #expect(MP4Parser.topLevelBoxes[MP4BoxType.free] == .skipped)
        #expect(MP4Parser.topLevelBoxes[FourCharCode.value("zzzz")] == nil)
    }

    @Test func registryKeepsTheFirstRoleOfADuplicate() {
        let registry = ElementRegistry<MP4BoxSyntax, Int>([(1, .streamed(1)), (1, .skipped), (2, .skipped)])
        #expect(registry[1] == .streamed(1))
        #expect(registry.duplicates == [1])
    }

    @Test func mp4HeaderSizesAndFaults() {
        let compact = MP4Build.box("free", [1, 2])
        guard case .header(let h) = MP4BoxSyntax.peekHeader(in: ByteReader(compact), at: 0) else {
            Issue.record("no header")
            return
        }
        #expect(h.headerSize == 8 && h.bodySize == 2 && h.size == 10 && h.name == "free")
        let large = MP4Build.largeBox("mdat", [9])
        guard case .header(let l) = MP4BoxSyntax.peekHeader(in: ByteReader(large), at: 0) else {
            Issue.record("no largesize header")
            return
        }
        #expect(l.headerSize == 16 && l.bodySize == 1)
        let open32 = MP4Build.u32(0) + MP4Build.code("mdat")
        guard case .header(let open) = MP4BoxSyntax.peekHeader(in: ByteReader(open32), at: 0) else {
            Issue.record("no size-0 header")
            return
        }
        #expect(open.bodySize == nil)
        let seven = MP4Build.u32(7) + MP4Build.code("free")
        guard case .invalid(let small) = MP4BoxSyntax.peekHeader(in: ByteReader(seven), at: 0) else {
            Issue.record("size 7 accepted")
            return
        }
        #expect(small.problem == .sizeBelowHeader && small.declaredSize == 7)
        #expect(small.error.reason == "mp4 (free): box size 7 is below 8")
        guard case .needMoreData(16) = MP4BoxSyntax.peekHeader(in: ByteReader(Array(large.prefix(12))), at: 0) else {
            Issue.record("a cut largesize is not needMoreData(16)")
            return
        }
    }

    @Test func uuidBoxExtendedTypeIsTheBodysFirstSixteenBytes() throws {
        let userType = (0..<16).map { UInt8($0) }
        let bytes = MP4Build.box("uuid", userType + [0xAA])
        var notes: [DiagnosticNote] = []
        let boxes = try MP4BoxTree.children(
            bytes[...], in: 0..<bytes.count, parent: "test", depth: 1, limits: ParserLimits(), notes: &notes)
        let uuid = try #require(boxes.first)
        #expect(MP4BoxSyntax.extendedType(of: uuid, in: bytes[...]).map(Array.init) == userType)
    }

    @Test func walkerReportsTrailingBytesAndStops() {
        let bytes = MP4Build.box("free", []) + [0, 0, 1]
        var walker = ElementWalker(bytes[...], in: 0..<bytes.count)
        let mp4 = MP4BoxSyntax.self
        guard case .element(let free) = walker.next(mp4), case .partialHeader(let tail, 8) = walker.next(mp4),
            case .end = walker.next(mp4)
        else {
            Issue.record("unexpected steps")
            return
        }
        #expect(free.end == 8)
        #expect(tail == 8..<11)
    }

    @Test func walkerChecksTheDepthBeforeReading() {
        let bytes = MP4Build.box("free", [])
        var limits = ParserLimits()
        limits.maxNestingDepth = 1
        var walker = ElementWalker(bytes[...], in: 0..<bytes.count, depth: 2, limits: limits)
        guard case .tooDeep = walker.next(MP4BoxSyntax.self), case .end = walker.next(MP4BoxSyntax.self) else {
            Issue.record("depth not checked first")
            return
        }
    }

    @Test func decoderWalkRejectsACutHeaderButAcceptsAZeroTerminator() throws {
        let terminated = MP4Build.box("frma", MP4Build.code("mp4a")) + [0, 0, 0, 0]
        #expect(try MP4ChildBoxes(terminated[...], parent: "wave").boxes.map(\.type) == [MP4Code.frma])
        let quickTime = MP4Build.box("frma", MP4Build.code("mp4a")) + MP4Build.u32(8) + [0, 0, 0, 0]
        #expect(try MP4ChildBoxes(quickTime[...], parent: "wave").boxes.count == 1)
        let cut = MP4Build.box("frma", MP4Build.code("mp4a")) + [0, 0, 1]
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (wave): child box header cut short")) {
            _ = try MP4ChildBoxes(cut[...], parent: "wave")
        }
        let small = MP4Build.u32(3) + MP4Build.code("esds")
        #expect(throws: StructureError(.invalidFile, reason: "mp4 (mp4a): child box 'esds' size 3 below its header")) {
            _ = try MP4ChildBoxes(small[...], parent: "mp4a")
        }
    }

    // MARK: A second syntax: unknown sizes that end at the next element of the same or a higher level

    /// One-byte IDs whose high nibble is the level (0x1_ top, 0x2_ inside a 0x1_, 0x3_ inside a 0x2_), a
    /// one-byte body size, 0xFF for an unknown size: EBML's rule in miniature.
    enum LevelSyntax: ElementSyntax {
        typealias ID = UInt8

        static func peekHeader(in bytes: some ElementBytes, at offset: Int) -> ElementHeaderPeek<LevelSyntax> {
            guard let id = bytes.peekUInt8(at: offset), let size = bytes.peekUInt8(at: offset + 1) else {
                return .needMoreData(2)
            }
            return .header(ElementHeader(id: id, headerSize: 2, bodySize: size == 0xFF ? nil : Int64(size)))
        }

        /// Walks the headers after the body start; the first one of the same or a higher level ends the
        /// element.
        static func endOfUnknownSize(
            _ header: ElementHeader<LevelSyntax>, in bytes: ArraySlice<UInt8>, bodyStart: Int, parentEnd: Int
        ) -> Int {
            var walker = ElementWalker(bytes, in: bodyStart..<parentEnd)
            while case .element(let child) = walker.next(LevelSyntax.self) {
                if child.id >> 4 <= header.id >> 4 { return child.start }
            }
            return parentEnd
        }

        static func name(of id: UInt8) -> String { "0x" + String(id, radix: 16) }

        static func error(for fault: ElementHeaderFault<LevelSyntax>) -> StructureError {
            StructureError(.invalidFile, reason: "level (\(name(of: fault.id ?? 0))): bad header")
        }
    }

    @Test func anUnknownSizeEndsAtTheNextElementOfItsLevel() {
        // 0x10 (unknown size) holding 0x21 [a] and 0x22 [b c]; then its sibling 0x11 [d].
        let bytes: [UInt8] = [0x10, 0xFF, 0x21, 1, 0xA, 0x22, 2, 0xB, 0xC, 0x11, 1, 0xD]
        var walker = ElementWalker(bytes[...], in: 0..<bytes.count)
        let syntax = LevelSyntax.self
        guard case .element(let open) = walker.next(syntax), case .element(let sibling) = walker.next(syntax),
            case .end = walker.next(syntax)
        else {
            Issue.record("unexpected steps")
            return
        }
        #expect(open.id == 0x10 && open.header.bodySize == nil && open.body == 2..<9)
        #expect(sibling.id == 0x11 && sibling.body == 11..<12)
        var inside = ElementWalker(bytes[...], in: open.body)
        guard case .element(let a) = inside.next(syntax), case .element(let b) = inside.next(syntax),
            case .end = inside.next(syntax)
        else {
            Issue.record("children of the open element")
            return
        }
        #expect([a.id, b.id] == [0x21, 0x22])
    }
}
