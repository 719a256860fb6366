/// An ISO base media file format box header (ISO/IEC 14496-12 §4.2 "Object structure"; QuickTime File
/// Format "Atoms").
///
/// ```
/// offset  size  field
///      0     4  size       UInt32, big-endian: the whole box, header included
///                          (1: a 64-bit largesize follows the type; 0: the box runs to the end of the file,
///                          or of its parent)
///      4     4  type       four-character code
///      8     8  largesize  UInt64, only when size == 1
/// ```
///
/// A `uuid` box has a 16-byte user type after this header; the parser skips such boxes whole, so it is
/// read as part of the body.
struct MP4BoxHeader: Equatable {
    /// The four-character type.
    var type: UInt32
    /// 8, or 16 with a largesize.
    var headerSize: Int
    /// The whole box's size, header included; `nil` for size 0 (to the end of the file or parent).
    var size: Int64?

    /// The body's size, when the box's size is known.
    var bodySize: Int64? { size.map { $0 - Int64(headerSize) } }

    /// What reading a header from the window gave.
    enum Peek {
        case header(MP4BoxHeader)
        /// This many bytes must be readable first.
        case needMoreData(Int)
        /// The size field cannot be right (smaller than the header, or larger than any offset).
        case invalid(String)
    }

    /// Reads the header at the window's position without consuming it.
    static func peek(_ window: InputWindow) -> Peek {
        guard let size32 = window.peekInteger(at: 0, as: UInt32.self, endianness: .big),
            let type = window.peekInteger(at: 4, as: UInt32.self, endianness: .big)
        else { return .needMoreData(8) }
        if size32 == 1 {
            guard let large = window.peekInteger(at: 8, as: UInt64.self, endianness: .big) else {
                return .needMoreData(16)
            }
            return make(type: UInt32(type), size32: 1, largesize: large)
        }
        return make(type: UInt32(type), size32: UInt32(size32), largesize: nil)
    }

    /// Reads the header at `offset` of a buffered box body; `nil` when fewer than 8 (16) bytes remain.
    static func read(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Peek {
        func be(_ at: Int, _ n: Int) -> UInt64? {
            guard at >= bytes.startIndex, n <= bytes.endIndex - at else { return nil }
            var v: UInt64 = 0
            for i in at..<(at + n) { v = v << 8 | UInt64(bytes[i]) }
            return v
        }
        guard let size32 = be(offset, 4), let type = be(offset + 4, 4) else { return .needMoreData(8) }
        if size32 == 1 {
            guard let large = be(offset + 8, 8) else { return .needMoreData(16) }
            return make(type: UInt32(type), size32: 1, largesize: large)
        }
        return make(type: UInt32(type), size32: UInt32(size32), largesize: nil)
    }

    private static func make(type: UInt32, size32: UInt32, largesize: UInt64?) -> Peek {
        let name = FourCharCode.string(type)
        if let largesize {
            guard largesize >= 16 else { return .invalid("mp4 (\(name)): largesize \(largesize) is below 16") }
            guard largesize <= UInt64(Int64.max) else {
                return .invalid("mp4 (\(name)): largesize \(largesize) runs past the largest stream offset")
            }
            return .header(MP4BoxHeader(type: type, headerSize: 16, size: Int64(largesize)))
        }
        if size32 == 0 { return .header(MP4BoxHeader(type: type, headerSize: 8, size: nil)) }
        guard size32 >= 8 else { return .invalid("mp4 (\(name)): box size \(size32) is below 8") }
        return .header(MP4BoxHeader(type: type, headerSize: 8, size: Int64(size32)))
    }
}

/// The box types the container parser knows (ISO/IEC 14496-12 §8; QuickTime File Format).
enum MP4BoxType {
    static let ftyp = FourCharCode.value("ftyp")
    static let moov = FourCharCode.value("moov")
    static let mdat = FourCharCode.value("mdat")
    static let free = FourCharCode.value("free")
    static let skip = FourCharCode.value("skip")
    static let wide = FourCharCode.value("wide")
    static let moof = FourCharCode.value("moof")
    static let mfra = FourCharCode.value("mfra")
    static let sidx = FourCharCode.value("sidx")
    static let styp = FourCharCode.value("styp")
    static let pdin = FourCharCode.value("pdin")
    static let uuid = FourCharCode.value("uuid")
    static let meta = FourCharCode.value("meta")
    static let pnot = FourCharCode.value("pnot")
    static let mvhd = FourCharCode.value("mvhd")
    static let trak = FourCharCode.value("trak")
    static let tkhd = FourCharCode.value("tkhd")
    static let tref = FourCharCode.value("tref")
    static let chap = FourCharCode.value("chap")
    static let edts = FourCharCode.value("edts")
    static let elst = FourCharCode.value("elst")
    static let mdia = FourCharCode.value("mdia")
    static let mdhd = FourCharCode.value("mdhd")
    static let hdlr = FourCharCode.value("hdlr")
    static let minf = FourCharCode.value("minf")
    static let stbl = FourCharCode.value("stbl")
    static let stsd = FourCharCode.value("stsd")
    static let stts = FourCharCode.value("stts")
    static let stsc = FourCharCode.value("stsc")
    static let stsz = FourCharCode.value("stsz")
    static let stz2 = FourCharCode.value("stz2")
    static let stco = FourCharCode.value("stco")
    static let co64 = FourCharCode.value("co64")
    static let udta = FourCharCode.value("udta")
    static let chpl = FourCharCode.value("chpl")
    static let mvex = FourCharCode.value("mvex")
    static let trex = FourCharCode.value("trex")
    static let mfhd = FourCharCode.value("mfhd")
    static let traf = FourCharCode.value("traf")
    static let tfhd = FourCharCode.value("tfhd")
    static let tfdt = FourCharCode.value("tfdt")
    static let trun = FourCharCode.value("trun")
    static let soun = FourCharCode.value("soun")
    static let text = FourCharCode.value("text")
    static let sbtl = FourCharCode.value("sbtl")
}
