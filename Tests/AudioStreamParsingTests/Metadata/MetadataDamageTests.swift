import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// Issue 15, item 7, in every container: a damaged ID3v2, APE, `ilst`, VORBIS_COMMENT, Matroska Tags or
/// RIFF LIST block costs its tags, never audio. Every fixture that carries such a block is parsed with the
/// block damaged in two ways: noise over the middle half of its payload, and its first inner length field
/// (an ID3v2 frame size, an APE item size, an `ilst` child size, the Vorbis vendor length, a LIST
/// sub-chunk size) set near 2³². The packets must be exactly the fixture's oracle packets (its ffprobe
/// packet list, as the conformance suite maps it), whole and in a random chunking, and no error may end
/// the parse. The blocks are found in the file by their spec layout, not by this library.
@Suite("Damaged metadata blocks cost no audio")
struct MetadataDamageTests {
    /// A metadata block of a fixture: its payload bytes and where its first inner length field is.
    struct Block: CustomStringConvertible {
        var kind: String
        var payload: Range<Int>
        /// The first inner length field (offset, width, little-endian), when the layout has one.
        var lengthField: (offset: Int, width: Int, littleEndian: Bool)?
        var description: String { "\(kind) @\(payload.lowerBound)..<\(payload.upperBound)" }
    }

    static func be32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return b[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    static func le32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return b[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    static func occurrences(of pattern: [UInt8], in b: [UInt8]) -> [Int] {
        guard b.count >= pattern.count else { return [] }
        var out: [Int] = []
        var i = 0
        while i + pattern.count <= b.count {
            if b[i] == pattern[0] && Array(b[i..<i + pattern.count]) == pattern { out.append(i) }
            i += 1
        }
        return out
    }

    /// ID3v2 (id3v2.4.0-structure §3.1): "ID3", version 2…4, revision < 0xFF, flags, 4 syncsafe size bytes.
    static func id3v2(_ b: [UInt8]) -> [Block] {
        occurrences(of: Array("ID3".utf8), in: b).compactMap { o in
            guard o + 10 <= b.count, (2...4).contains(b[o + 3]), b[o + 4] != 0xFF,
                b[(o + 6)..<(o + 10)].allSatisfy({ $0 < 0x80 })
            else { return nil }
            let size = b[(o + 6)..<(o + 10)].reduce(0) { $0 << 7 | Int($1) }
            guard size >= 16, o + 10 + size <= b.count, b[o + 5] & 0x40 == 0 else { return nil }
            // The first frame: v2.2 has a 3-byte ID and a 3-byte size, v2.3/2.4 a 4-byte ID and size.
            let field = b[o + 3] == 2 ? (offset: o + 13, width: 3, littleEndian: false) : (o + 14, 4, false)
            return Block(kind: "ID3v2", payload: (o + 10)..<(o + 10 + size), lengthField: field)
        }
    }

    /// APEv2 footer (the last 32 bytes of the tag): "APETAGEX", version, tag size (items + footer), item
    /// count, flags. Each item starts with its value size (little-endian 32 bits).
    static func ape(_ b: [UInt8]) -> [Block] {
        occurrences(of: Array("APETAGEX".utf8), in: b).compactMap { o in
            guard let size = le32(b, o + 12), size > 32, o + 32 <= b.count, let flags = le32(b, o + 20),
                flags & (1 << 29) == 0, o + 32 - size >= 0
            else { return nil }
            let items = (o + 32 - size)..<o
            return Block(kind: "APE", payload: items, lengthField: (items.lowerBound, 4, true))
        }
    }

    /// ISO/IEC 14496-12 box `ilst` (size, type); its first child's size is its first 4 bytes.
    static func ilst(_ b: [UInt8]) -> [Block] {
        occurrences(of: Array("ilst".utf8), in: b).compactMap { o in
            guard let size = be32(b, o - 4), size > 16, o - 4 + size <= b.count else { return nil }
            return Block(kind: "ilst", payload: (o + 4)..<(o - 4 + size), lengthField: (o + 4, 4, false))
        }
    }

    /// FLAC METADATA_BLOCK_VORBIS_COMMENT (RFC 9639 §8.6): type 4 in the metadata block chain; its payload
    /// starts with the vendor string's length (little-endian).
    static func flacComment(_ b: [UInt8]) -> [Block] {
        guard b.starts(with: Array("fLaC".utf8)) else { return [] }
        var at = 4
        while at + 4 <= b.count {
            let type = b[at] & 0x7F
            let length = Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
            if type == 4, at + 4 + length <= b.count, length >= 8 {
                return [
                    Block(kind: "VORBIS_COMMENT", payload: (at + 4)..<(at + 4 + length), lengthField: (at + 4, 4, true))
                ]
            }
            if b[at] & 0x80 != 0 { break }
            at += 4 + length
        }
        return []
    }

    /// Matroska Tags (RFC 9559 §5.1.8, ID 0x1254C367) with its EBML variable-size length (RFC 8794 §4.4).
    static func matroskaTags(_ b: [UInt8]) -> [Block] {
        occurrences(of: [0x12, 0x54, 0xC3, 0x67], in: b).compactMap { o in
            // Not the ID as a SeekHead's SeekID value (0x53AB, size 4, then the ID).
            guard o < 3 || Array(b[(o - 3)..<o]) != [0x53, 0xAB, 0x84] else { return nil }
            let s = o + 4
            guard s < b.count, b[s] != 0 else { return nil }
            let width = b[s].leadingZeroBitCount + 1
            guard s + width <= b.count else { return nil }
            var size = Int(b[s]) & (0xFF >> width)
            for i in 1..<width { size = size << 8 | Int(b[s + i]) }
            guard size >= 16, s + width + size <= b.count else { return nil }
            return Block(kind: "Tags", payload: (s + width)..<(s + width + size), lengthField: nil)
        }
    }

    /// A RIFF `LIST` chunk of type `INFO` (size little-endian); its first sub-chunk's size follows the
    /// list type and the sub-chunk ID.
    static func riffInfo(_ b: [UInt8]) -> [Block] {
        guard b.starts(with: Array("RIFF".utf8)) else { return [] }
        return occurrences(of: Array("LIST".utf8), in: b).compactMap { o in
            guard let size = le32(b, o + 4), size > 16, o + 8 + size <= b.count,
                Array(b[(o + 8)..<(o + 12)]) == Array("INFO".utf8)
            else { return nil }
            return Block(kind: "LIST INFO", payload: (o + 8)..<(o + 8 + size), lengthField: (o + 16, 4, true))
        }
    }

    static func blocks(_ b: [UInt8]) -> [Block] {
        id3v2(b) + ape(b) + ilst(b) + flacComment(b) + matroskaTags(b) + riffInfo(b)
    }

    /// The fixture's bytes with `block` damaged: noise over the middle half of the payload, or the length
    /// field set to 0xFFFFFFF0 (0xFFFFF0 for 3 bytes).
    static func damaged(_ bytes: [UInt8], _ block: Block, lengthField: Bool) -> [UInt8]? {
        var out = bytes
        if lengthField {
            guard let field = block.lengthField, field.offset + field.width <= out.count else { return nil }
            var value: [UInt8] = field.width == 3 ? [0xFF, 0xFF, 0xF0] : [0xFF, 0xFF, 0xFF, 0xF0]
            if field.littleEndian { value.reverse() }
            out.replaceSubrange(field.offset..<(field.offset + field.width), with: value)
        } else {
            let quarter = block.payload.count / 4
            let range = (block.payload.lowerBound + quarter)..<(block.payload.upperBound - quarter)
            out.replaceSubrange(
                range, with: DamageRecoveryTests.noise(count: range.count, seed: UInt64(block.payload.lowerBound)))
        }
        return out
    }

    /// Every (fixture, block, mode) case with the fixture's expected packets.
    static func cases() throws -> [(fixture: Fixture, block: Block, lengthField: Bool)] {
        var out: [(Fixture, Block, Bool)] = []
        for fixture in FixtureCatalog.all where ConformanceInput.knownGap(fixture) == nil {
            guard !fixture.path.hasPrefix("hls/"), !fixture.path.hasPrefix("malformed/") else { continue }
            let input = try ConformanceInput.input(for: fixture)
            for block in blocks(input.bytes) {
                out.append((fixture, block, false))
                if block.lengthField != nil { out.append((fixture, block, true)) }
            }
        }
        return out
    }

    @Test("a damaged tag block in any container: every oracle packet, no error, in two chunkings")
    func damagedTagBlocksKeepAudio() throws {
        let all = try Self.cases()
        #expect(Set(all.map { $0.block.kind }).count == 6, "block kinds found: \(Set(all.map { $0.block.kind }))")
        #expect(all.count >= 40, "too few cases: \(all.count)")
        let kinds = Dictionary(grouping: all, by: { $0.block.kind }).mapValues(\.count).sorted { $0.key < $1.key }
        print("damaged metadata: \(all.count) cases: \(kinds.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        for (fixture, block, lengthField) in all {
            let input = try ConformanceInput.input(for: fixture)
            let expected = try FixtureConformanceTests.expectation(for: fixture).shifted(by: input.shift)
            guard let packets = expected.packets, let bytes = Self.damaged(input.bytes, block, lengthField: lengthField)
            else { continue }
            let what = "\(fixture.path), \(block) \(lengthField ? "length field" : "noise")"
            for chunking in [Chunking.whole, .random(seed: 7, maxSize: 3000)] {
                let log = ParseRunner.run(bytes, chunking: chunking, options: ConformanceInput.options(for: fixture))
                #expect(log.error == nil, "\(what) \(chunking): \(String(describing: log.error))")
                let got = log.packets.map { PacketSpan(offset: $0.offset, size: Int64($0.size)) }
                if got != packets {
                    let firstDiff =
                        zip(got, packets).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(got.count, packets.count)
                    let gotAt = got.dropFirst(firstDiff).first.map { "\($0)" } ?? "none"
                    let wantAt = packets.dropFirst(firstDiff).first.map { "\($0)" } ?? "none"
                    Issue.record(
                        "\(what) \(chunking): \(got.count) packets, want \(packets.count); first difference at \(firstDiff): \(gotAt) vs \(wantAt)"
                    )
                }
            }
        }
    }
}
