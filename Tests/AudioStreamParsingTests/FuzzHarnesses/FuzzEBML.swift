#if !FUZZ_SINGLE_MODULE
@testable import AudioStreamParsing
#endif

/// The EBML walker alone (`FuzzEBML`): the input is walked as a tree of EBML elements
/// (`ElementWalker` with `EBMLSyntax`), every element's body walked again one level deeper (as if it
/// were a master) up to `FuzzHarness.limits.maxNestingDepth`, every leaf decoded with each value type
/// (`EBMLValue`) and as a block header (`MatroskaBlock`), and the whole input read as a buffered master
/// (`EBMLMaster`).
///
/// Checks: each child starts where the previous one ended and lies inside its parent; a header is 2–12
/// bytes; an element of unknown size ends inside its parent, after its header; a walk of `n` bytes takes
/// at most `n / 2` steps; a block's frame sizes are not negative and sum to its body after the header.
enum FuzzEBML {
    static func run(_ input: [UInt8]) throws {
        let bytes = input[...]
        var steps = 0
        try walk(bytes, body: bytes.indices, depth: 1, steps: &steps)
        _ = try? EBMLMaster(whole: bytes, depth: 1, limits: FuzzHarness.limits)
    }

    private static func walk(_ bytes: ArraySlice<UInt8>, body: Range<Int>, depth: Int, steps: inout Int) throws {
        var walker = ElementWalker(bytes, in: body, depth: depth, limits: FuzzHarness.limits)
        var expected = body.lowerBound
        var count = 0
        while true {
            count += 1
            try FuzzHarness.check(
                count <= body.count / EBMLSyntax.smallestHeader + 2, "walk of \(body.count) bytes took \(count) steps")
            let step = walker.next(EBMLSyntax.self)
            guard case .element(let child) = step else {
                if case .partialHeader(let tail, _) = step {
                    try FuzzHarness.check(tail.upperBound == body.upperBound, "partial header \(tail) not at the end")
                }
                return
            }
            try FuzzHarness.check(child.start == expected, "child at \(child.start), expected \(expected)")
            try FuzzHarness.check(
                (2...12).contains(child.header.headerSize), "header of \(child.header.headerSize) bytes")
            try FuzzHarness.check(
                child.bodyStart <= child.end && child.end <= body.upperBound,
                "child \(child.start)..<\(child.end) (body from \(child.bodyStart)) outside its parent \(body)")
            if child.header.size == nil {
                let end = EBMLSyntax.endOfUnknownSize(
                    child.header, in: bytes, bodyStart: child.bodyStart, parentEnd: body.upperBound)
                try FuzzHarness.check(
                    child.bodyStart <= end && end <= body.upperBound, "unknown size ends at \(end), outside its parent")
            }
            expected = child.end
            _ = EBMLSyntax.name(of: child.id)
            try leaf(bytes, child)
            // Bounded: each byte lies in at most maxNestingDepth bodies.
            steps += 1
            if child.body.count >= EBMLSyntax.smallestHeader {
                try walk(bytes, body: child.body, depth: depth + 1, steps: &steps)
            }
        }
    }

    private static func leaf(_ bytes: ArraySlice<UInt8>, _ element: BufferedElement<EBMLSyntax>) throws {
        let body = bytes[element.body]
        _ = EBMLValue.unsigned(body)
        _ = EBMLValue.signed(body)
        _ = EBMLValue.float(body)
        _ = EBMLValue.string(body)
        guard
            case .block(let block) = MatroskaBlock.decode(
                in: ByteReader(body), at: 0, bodySize: body.count)
        else { return }
        try FuzzHarness.check(block.frameSizes.allSatisfy { $0 >= 0 }, "negative frame size \(block.frameSizes)")
        try FuzzHarness.check(
            block.headerLength + block.frameSizes.reduce(0, +) == body.count,
            "block header \(block.headerLength) + frames \(block.frameSizes) ≠ body \(body.count)")
    }
}
