/// Builds small MP4/QuickTime files box by box for the MP4 container tests (ISO/IEC 14496-12 §4.2 box
/// layout; the field layouts are the ones `MP4SampleTable`, `MP4Movie` and `MP4MovieFragment` document).
enum MP4Build {
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) }
    static func code(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// A box with a 32-bit size.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(UInt32(8 + body.count)) + code(type) + body }
    /// A box with a 64-bit largesize.
    static func largeBox(_ type: String, _ body: [UInt8]) -> [UInt8] {
        u32(1) + code(type) + u64(UInt64(16 + body.count)) + body
    }
    /// A full box (version 0, flags).
    static func full(_ type: String, flags: UInt32 = 0, _ body: [UInt8]) -> [UInt8] { box(type, u32(flags) + body) }

    static func ftyp(_ brand: String) -> [UInt8] { box("ftyp", code(brand) + u32(0) + code(brand) + code("isom")) }

    /// A QuickTime sound sample entry, version 0 ('sowt': 16-bit little-endian PCM).
    static func soundEntry(_ type: String = "sowt", channels: UInt16, bits: UInt16, rate: UInt16) -> [UInt8] {
        box(
            type,
            [0, 0, 0, 0, 0, 0] + u16(1) + u16(0) + u16(0) + u32(0) + u16(channels) + u16(bits) + u16(0) + u16(0)
                + u32(UInt32(rate) << 16))
    }

    /// A track with the given sample table boxes.
    static func trak(
        id: UInt32, handler: String, timescale: UInt32, entry: [UInt8], tables: [UInt8], extra: [UInt8] = []
    ) -> [UInt8] {
        let tkhd = full(
            "tkhd", flags: 7, u32(0) + u32(0) + u32(id) + u32(0) + u32(0) + [UInt8](repeating: 0, count: 60))
        let mdhd = full("mdhd", u32(0) + u32(0) + u32(timescale) + u32(0) + u16(0x55C4) + u16(0))
        let hdlr = full("hdlr", u32(0) + code(handler) + [UInt8](repeating: 0, count: 12) + [0])
        let stsd = full("stsd", u32(1) + entry)
        let stbl = box("stbl", stsd + tables)
        let minf = box("minf", stbl)
        return box("trak", tkhd + extra + box("mdia", mdhd + hdlr + minf))
    }

    static func stts(_ runs: [(UInt32, UInt32)]) -> [UInt8] {
        full("stts", u32(UInt32(runs.count)) + runs.flatMap { u32($0.0) + u32($0.1) })
    }
    static func stsc(_ entries: [(UInt32, UInt32)]) -> [UInt8] {
        full("stsc", u32(UInt32(entries.count)) + entries.flatMap { u32($0.0) + u32($0.1) + u32(1) })
    }
    static func stsz(constant: UInt32, count: UInt32) -> [UInt8] { full("stsz", u32(constant) + u32(count)) }
    static func stsz(_ sizes: [UInt32]) -> [UInt8] {
        full("stsz", u32(0) + u32(UInt32(sizes.count)) + sizes.flatMap { u32($0) })
    }
    static func stco(_ offsets: [UInt32]) -> [UInt8] {
        full("stco", u32(UInt32(offsets.count)) + offsets.flatMap { u32($0) })
    }
    static func co64(_ offsets: [UInt64]) -> [UInt8] {
        full("co64", u32(UInt32(offsets.count)) + offsets.flatMap { u64($0) })
    }

    static func mvhd(timescale: UInt32) -> [UInt8] {
        full("mvhd", u32(0) + u32(0) + u32(timescale) + u32(0) + [UInt8](repeating: 0, count: 80))
    }

    /// The payload byte at absolute offset `i` of a synthetic file (a recognisable pattern).
    static func pattern(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
}

/// A synthetic movie: an 8 kHz mono 16-bit PCM track ('sowt') whose chunks are interleaved with a video
/// track's chunks in one `mdat`.
///
/// Layout (offsets are absolute): ftyp (24 bytes) | moov | mdat header (8) | audio chunk 0: 10 frames (20 bytes)
/// | video chunk 0: 2 samples of 7 and 5 bytes | audio chunk 1: 6 frames (12 bytes) | video chunk 1: 1 sample of
/// 9 bytes. With `movieLast`, the mdat comes first and the moov after it.
struct InterleavedMovie {
    let bytes: [UInt8]
    /// Absolute offsets of the two audio chunks.
    let audioChunks: [(offset: Int64, frames: Int)]
    let mdatStart: Int64
    let moovStart: Int64

    init(movieLast: Bool = false, brand: String = "qt  ", largeMediaHeader: Bool = false) {
        let ftyp = MP4Build.ftyp(brand)
        func moov(_ base: Int64) -> [UInt8] {
            // mdat payload starts at base: audio 20 bytes, video 12, audio 12, video 9.
            let a0 = UInt32(base)
            let v0 = UInt32(base + 20)
            let a1 = UInt32(base + 32)
            let v1 = UInt32(base + 44)
            let audio = MP4Build.trak(
                id: 1, handler: "soun", timescale: 8000, entry: MP4Build.soundEntry(channels: 1, bits: 16, rate: 8000),
                tables: MP4Build.stts([(16, 1)]) + MP4Build.stsc([(1, 10), (2, 6)])
                    + MP4Build.stsz(constant: 2, count: 16)
                    + MP4Build.stco([a0, a1]))
            let video = MP4Build.trak(
                id: 2, handler: "vide", timescale: 10, entry: MP4Build.box("mp4v", [UInt8](repeating: 0, count: 78)),
                tables: MP4Build.stts([(3, 1)]) + MP4Build.stsc([(1, 2), (2, 1)]) + MP4Build.stsz([7, 5, 9])
                    + MP4Build.stco([v0, v1]))
            return MP4Build.box("moov", MP4Build.mvhd(timescale: 1000) + audio + video)
        }
        let payloadCount = 53
        let moovSize = moov(0).count
        let mdatStart = movieLast ? Int64(ftyp.count) : Int64(ftyp.count + moovSize)
        let header: Int64 = largeMediaHeader ? 16 : 8
        let base = mdatStart + header
        var payload: [UInt8] = []
        for i in 0..<payloadCount { payload.append(MP4Build.pattern(Int(base) + i)) }
        let mdat = largeMediaHeader ? MP4Build.largeBox("mdat", payload) : MP4Build.box("mdat", payload)
        let moovStart = movieLast ? mdatStart + Int64(mdat.count) : Int64(ftyp.count)
        bytes = movieLast ? ftyp + mdat + moov(base) : ftyp + moov(base) + mdat
        audioChunks = [(base, 10), (base + 32, 6)]
        self.mdatStart = mdatStart
        self.moovStart = moovStart
    }

    /// Every audio packet (one 2-byte frame each) as (offset, size).
    var audioPackets: [(Int64, Int)] {
        audioChunks.flatMap { c in (0..<c.frames).map { (c.offset + Int64(2 * $0), 2) } }
    }
}
