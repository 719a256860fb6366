/// The children of an EBML master element held whole in memory (`Info`, `Tracks`, `Tags`, …), read on
/// the element-tree engine (`ElementWalker`), and the element value types of RFC 8794 §7.
///
/// Rules: a child that runs past its parent, or a header that cannot be right, throws `invalidFile`
/// (the master is damaged; the parser then skips it or fails, as the element requires); bytes too few
/// for a header at the end of the parent are ignored; `depth` is checked against
/// `ParserLimits.maxNestingDepth` before anything is read.
struct EBMLMaster {
    /// The buffer holding the element.
    let bytes: ArraySlice<UInt8>
    /// The children, in order.
    let children: [BufferedElement<EBMLSyntax>]

    /// The children of the element whose body is `range` of `bytes`.
    init(
        _ bytes: ArraySlice<UInt8>, body range: Range<Int>, name: String, depth: Int, limits: ParserLimits
    ) throws(StructureError) {
        self.bytes = bytes
        var walker = ElementWalker(bytes, in: range, depth: depth, limits: limits)
        var out: [BufferedElement<EBMLSyntax>] = []
        walk: while true {
            switch walker.next(EBMLSyntax.self) {
            case .element(let child): out.append(child)
            case .end, .partialHeader: break walk
            case .invalid(let fault, _): throw fault.error
            case .pastParent(let header, _, let left):
                throw Structure.mkv(header.name).invalid(
                    "element of \(header.size ?? 0) bytes ends past its parent \(name) (\(left) bytes left)")
            case .tooDeep: throw Structure.mkv(name).limit("elements nested deeper than maxNestingDepth")
            }
        }
        children = out
    }

    /// The children of a whole element held in `bytes` (header included).
    init(whole bytes: ArraySlice<UInt8>, depth: Int, limits: ParserLimits) throws(StructureError) {
        guard case .header(let header) = EBMLSyntax.peekHeader(in: ByteReader(bytes), at: 0) else {
            throw Structure.mkv.invalid("bad element header")
        }
        let start = bytes.startIndex + header.headerSize
        try self.init(bytes, body: start..<bytes.endIndex, name: header.name, depth: depth, limits: limits)
    }

    /// The children of `child`, one level deeper.
    func master(_ child: BufferedElement<EBMLSyntax>, depth: Int, limits: ParserLimits) throws(StructureError)
        -> EBMLMaster
    {
        try EBMLMaster(bytes, body: child.body, name: child.name, depth: depth, limits: limits)
    }

    /// The first child with `id`.
    func first(_ id: UInt32) -> BufferedElement<EBMLSyntax>? { children.first { $0.id == id } }

    /// The body of the first child with `id`.
    func body(_ id: UInt32) -> ArraySlice<UInt8>? { first(id).map { bytes[$0.body] } }

    /// The first `id` child as an unsigned integer (§7.2: 0–8 bytes, big-endian; empty is 0).
    func unsigned(_ id: UInt32) -> UInt64? { body(id).flatMap(EBMLValue.unsigned) }

    /// The first `id` child as a float (§7.3: 0, 4 or 8 bytes).
    func float(_ id: UInt32) -> Double? { body(id).flatMap(EBMLValue.float) }

    /// The first `id` child as a string (§7.4, §7.5: UTF-8, up to the first NUL).
    func string(_ id: UInt32) -> String? { body(id).map(EBMLValue.string) }
}

/// Decoders of the EBML element value types (RFC 8794 §7).
enum EBMLValue {
    /// An unsigned integer of 0–8 bytes; `nil` for a longer body.
    static func unsigned(_ body: ArraySlice<UInt8>) -> UInt64? {
        guard body.count <= 8 else { return nil }
        return body.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A signed integer of 0–8 bytes (two's complement); `nil` for a longer body.
    static func signed(_ body: ArraySlice<UInt8>) -> Int64? {
        guard let raw = unsigned(body) else { return nil }
        guard !body.isEmpty, body.count < 8 else { return Int64(bitPattern: raw) }
        let shift = UInt64(64 - 8 * body.count)
        return Int64(bitPattern: raw << shift) >> shift
    }

    /// A float of 0 (0.0), 4 or 8 bytes, big-endian; `nil` for another length.
    static func float(_ body: ArraySlice<UInt8>) -> Double? {
        switch body.count {
        case 0: return 0
        case 4: return unsigned(body).map { Double(Float(bitPattern: UInt32($0))) }
        case 8: return unsigned(body).map { Double(bitPattern: $0) }
        default: return nil
        }
    }

    /// A UTF-8 (or ASCII) string, ending at the first NUL byte if any.
    static func string(_ body: ArraySlice<UInt8>) -> String { TextDecoding.nulTerminated(body) }
}
