/// An item's value: the data box `data` inside an `ilst` item (Apple QuickTime File Format,
/// "Metadata": Data Atom, well-known types; iTunes' layout).
///
/// ```
/// offset  size  field
///      0     1  type set          0: the well-known types below
///      1     3  well-known type   0 implicit (binary), 1 UTF-8, 2 UTF-16BE, 13 JPEG, 14 PNG, 27 BMP,
///                                 21 signed big-endian integer (1, 2, 3, 4 or 8 bytes), 22 unsigned
///      4     4  locale            country and language (0: default)
///      8     …  value
///
///  implicit values read by key:  trkn, disk: 2 reserved, number 2, total 2 [, 2 reserved]
///                                gnre: 16-bit ID3v1 genre index + 1
///                                cpil, tmpo, pgap, …: big-endian integers (old iTunes files)
/// ```
struct MP4DataBox: Equatable {
    /// The well-known type (the low 24 bits of the type indicator).
    var wellKnownType: UInt32
    /// The value bytes.
    var value: ArraySlice<UInt8>

    /// Decodes the body of a `data` box of the item `key`.
    ///
    /// - Throws: `invalidFile` when the body is shorter than its 8-byte type and locale.
    static func decode(_ body: ArraySlice<UInt8>, key: String) throws(StructureError) -> MP4DataBox {
        guard let indicator = ByteReader(body).peekInteger(as: UInt32.self, endianness: .big), body.count >= 8 else {
            throw Structure.mp4("ilst").invalid("data box of '\(key)' shorter than 8 bytes")
        }
        return MP4DataBox(wellKnownType: indicator & 0xFF_FFFF, value: body.dropFirst(8))
    }

    /// The value as text for the item `key`; `nil` when it cannot be shown as text.
    func text(key: String) -> String? {
        let v = Array(value)
        switch key {
        case "trkn", "disk":
            // 2 reserved bytes, number 16, total 16 (14496-12 has no such item; iTunes' layout).
            guard v.count >= 6 else { return nil }
            let number = Int(v[2]) << 8 | Int(v[3])
            let total = Int(v[4]) << 8 | Int(v[5])
            return total > 0 ? "\(number)/\(total)" : "\(number)"
        case "gnre":
            guard v.count >= 2 else { return nil }
            let index = Int(v[0]) << 8 | Int(v[1])
            return ID3v1Genre.name(index - 1) ?? "\(index)"
        default:
            break
        }
        switch wellKnownType {
        case 1:
            return String(decoding: v, as: UTF8.self)
        case 2:
            let units = stride(from: 0, to: v.count - 1, by: 2).map { UInt16(v[$0]) << 8 | UInt16(v[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        case 21, 22:
            return Self.integer(v, signed: wellKnownType == 21)
        case 0 where Self.integerKeys.contains(key):
            return Self.integer(v, signed: false)
        default:
            return nil
        }
    }

    /// A big-endian integer of 1, 2, 3, 4 or 8 bytes as decimal text.
    static func integer(_ v: [UInt8], signed: Bool) -> String? {
        guard [1, 2, 3, 4, 8].contains(v.count) else { return nil }
        let unsigned = v.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard signed else { return String(unsigned) }
        let shift = UInt64(64 - 8 * v.count)
        return String(Int64(bitPattern: unsigned << shift) >> Int64(shift))
    }

    /// Items iTunes writes as integers with the implicit type 0 in old files.
    static let integerKeys: Set<String> = [
        "cpil", "tmpo", "pgap", "rtng", "stik", "hdvd", "tves", "tvsn", "pcst",
    ]
}
