import AudioStreamParsing

/// One delivered packet with its stream index.
package struct LoggedPacket: Equatable, CustomStringConvertible, Sendable {
    /// The packet index the parser gave it (`firstPacketIndex` + position in the batch).
    package var index: Int64
    /// Absolute stream offset of its first byte.
    package var offset: Int64
    package var size: Int
    /// `mVariableFramesInPacket` (0 when frames per packet are constant).
    package var variableFrames: UInt32

    package init(index: Int64, offset: Int64, size: Int, variableFrames: UInt32) {
        self.index = index
        self.offset = offset
        self.size = size
        self.variableFrames = variableFrames
    }

    package var description: String {
        "#\(index) @\(offset)+\(size)" + (variableFrames != 0 ? " (\(variableFrames) fr)" : "")
    }
}

extension EventLog {
    /// Every packet, expanded, with the index the parser gave it.
    package var indexedPackets: [LoggedPacket] {
        var out: [LoggedPacket] = []
        for case .packets(let r) in entries {
            for i in 0..<r.count {
                out.append(
                    LoggedPacket(
                        index: r.firstPacketIndex + Int64(i), offset: r.fileOffset + Int64(i * r.size), size: r.size,
                        variableFrames: r.frames))
            }
        }
        return out
    }

    /// The diagnostics, in order.
    package var diagnostics: [ParserDiagnostic] {
        entries.compactMap { if case .diagnostic(let d) = $0 { return d } else { return nil } }
    }
}

extension AudioStreamParser {
    /// Feeds `input` cut by `chunking` (the first non-empty chunk flagged `firstFlags`), then finishes.
    /// Returns the error thrown, if any.
    package func feed(
        _ input: ArraySlice<UInt8>, chunking: Chunking, firstFlags: ParseFlags = [], finish: Bool = true
    ) -> AudioStreamError? {
        var flags = firstFlags
        do {
            for r in chunking.ranges(count: input.count) {
                let lo = input.startIndex + r.lowerBound
                try parse(input[lo..<(lo + r.count)], flags: flags)
                if !r.isEmpty { flags = [] }
            }
            if finish { try self.finish() }
        } catch {
            return error
        }
        return nil
    }
}

/// The index of the first element where `a` and `b` differ (including one being shorter), or nil when
/// they are equal.
package func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
    for i in 0..<min(a.count, b.count) where a[i] != b[i] { return i }
    return a.count == b.count ? nil : min(a.count, b.count)
}

/// "first difference at #i: got X, expected Y", or nil when equal.
package func describeFirstDifference<T: Equatable & CustomStringConvertible>(got: [T], expected: [T]) -> String? {
    guard let i = firstDifference(got, expected) else { return nil }
    let g = i < got.count ? got[i].description : "none"
    let e = i < expected.count ? expected[i].description : "none"
    return "\(got.count) vs \(expected.count) expected; first difference at #\(i): got \(g), expected \(e)"
}
