/// The boxes directly inside a fully buffered box body (ISO/IEC 14496-12 §4.2), for the decoders in
/// this folder (sample entries, `wave`, `meta`/`ilst`). The streaming box walker is the container
/// parser's; this only reads bytes that are already whole.
///
/// ```
///  size        4   32-bit box size including this header; 1: a 64-bit largesize follows;
///                  0: the box runs to the end of its parent
///  type        4   four-character code
///  [largesize  8]
///  body        size − header
/// ```
///
/// A QuickTime terminator (a 4-byte zero, or an 8-byte box of size 8 and type 0, as ffmpeg writes
/// at the end of `wave`) ends the list.
struct MP4ChildBoxes {
    /// One child box.
    struct Box {
        /// The four-character type.
        var type: UInt32
        /// The body (after the header), indices relative to the parent's bytes.
        var body: ArraySlice<UInt8>
        /// The whole box (header and body).
        var whole: ArraySlice<UInt8>
    }

    /// The boxes in order.
    private(set) var boxes: [Box] = []

    /// Splits `bytes` into boxes.
    ///
    /// - Parameters:
    ///   - bytes: the parent's body (or the part of it that holds child boxes).
    ///   - parent: the parent's name for error reasons, e.g. `"mp4a"`.
    /// - Throws: `invalidFile` when a box header is cut, a size is smaller than its header, or a box
    ///   ends past its parent.
    init(_ bytes: ArraySlice<UInt8>, parent: String) throws(MP4BoxError) {
        var offset = bytes.startIndex
        let end = bytes.endIndex
        while offset < end {
            let left = end - offset
            if left < 8 {
                // A 4-byte zero terminator (QuickTime); anything else is a cut header.
                if bytes[offset..<end].allSatisfy({ $0 == 0 }) { return }
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (\(parent)): child box header cut short")
            }
            let size32 = Self.uint32(bytes, offset)
            let type = Self.uint32(bytes, offset + 4)
            var header = 8
            var size: UInt64 = UInt64(size32)
            if size32 == 1 {
                guard left >= 16 else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (\(parent)): child box largesize cut short")
                }
                size = UInt64(Self.uint32(bytes, offset + 8)) << 32 | UInt64(Self.uint32(bytes, offset + 12))
                header = 16
            } else if size32 == 0 {
                size = UInt64(left)
            }
            if type == 0 && (size32 == 8 || size32 == 0) { return }  // QuickTime terminator
            guard size >= UInt64(header) else {
                throw MP4BoxError(
                    code: .invalidFile,
                    reason: "mp4 (\(parent)): child box '\(FourCharCode.string(type))' size \(size) below its header")
            }
            guard size <= UInt64(left) else {
                throw MP4BoxError(
                    code: .invalidFile,
                    reason: "mp4 (\(parent)): child box '\(FourCharCode.string(type))' ends past its parent")
            }
            let boxEnd = offset + Int(size)
            boxes.append(Box(type: type, body: bytes[(offset + header)..<boxEnd], whole: bytes[offset..<boxEnd]))
            offset = boxEnd
        }
    }

    /// The first child of `type`.
    func first(_ type: UInt32) -> Box? { boxes.first { $0.type == type } }

    static func uint32(_ bytes: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }
}

/// Four-character codes of the boxes the decoders in this folder read.
enum MP4Code {
    static let esds = FourCharCode.value("esds")
    static let wave = FourCharCode.value("wave")
    static let frma = FourCharCode.value("frma")
    static let enda = FourCharCode.value("enda")
    static let chan = FourCharCode.value("chan")
    static let btrt = FourCharCode.value("btrt")
    static let srat = FourCharCode.value("srat")
    static let alac = FourCharCode.value("alac")
    static let dOps = FourCharCode.value("dOps")
    static let dfLa = FourCharCode.value("dfLa")
    static let dac3 = FourCharCode.value("dac3")
    static let dec3 = FourCharCode.value("dec3")
    static let mp4a = FourCharCode.value("mp4a")
    static let mp3 = FourCharCode.value(".mp3")
    static let mp3MS = UInt32(0x6D73_0055)  // 'ms' 0x0055: WAVE_FORMAT_MPEGLAYER3 in QuickTime
    static let opus = FourCharCode.value("Opus")
    static let fLaC = FourCharCode.value("fLaC")
    static let ac3 = FourCharCode.value("ac-3")
    static let ec3 = FourCharCode.value("ec-3")
    static let lpcm = FourCharCode.value("lpcm")
    static let sowt = FourCharCode.value("sowt")
    static let twos = FourCharCode.value("twos")
    static let none = FourCharCode.value("NONE")
    static let raw = FourCharCode.value("raw ")
    static let in24 = FourCharCode.value("in24")
    static let in32 = FourCharCode.value("in32")
    static let fl32 = FourCharCode.value("fl32")
    static let fl64 = FourCharCode.value("fl64")
    static let ulaw = FourCharCode.value("ulaw")
    static let alaw = FourCharCode.value("alaw")
    static let meta = FourCharCode.value("meta")
    static let hdlr = FourCharCode.value("hdlr")
    static let ilst = FourCharCode.value("ilst")
    static let data = FourCharCode.value("data")
    static let mean = FourCharCode.value("mean")
    static let name = FourCharCode.value("name")
    static let freeform = FourCharCode.value("----")
    static let chpl = FourCharCode.value("chpl")
    static let elst = FourCharCode.value("elst")
    static let keys = FourCharCode.value("keys")
}
