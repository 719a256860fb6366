import AudioStreamParsing
import AudioStreamTestSupport

/// Where the bytes of a transport stream's first audio elementary stream lie in the file, found from
/// ISO/IEC 13818-1 alone (test code, independent of the library): units of 188, 192 (4-byte prefix) or
/// 204 bytes by the sync spacing (§2.4.3.2), the PAT's first program (§2.4.4.3), its PMT's first audio
/// stream_type (§2.4.4.8: 0x03, 0x04, 0x0F, 0x81, 0x87, or 0x06 with an AC-3/E-AC-3 descriptor; else the first
/// 0x06 stream: the HDMV fixture's AAC is a private PES stream without a descriptor), that
/// PID's payloads after the adaptation field (§2.4.3.4) and, at each payload_unit_start, after the PES
/// header (§2.4.3.6: 9 + PES_header_data_length bytes). The PAT and PMT are assumed to fit one packet
/// each (ffmpeg's do).
struct TSLayout {
    /// The elementary stream's bytes, and each one's absolute offset in the file.
    var bytes: [UInt8] = []
    var offsets: [Int64] = []

    init(_ file: [UInt8]) throws(ExpectationError) {
        guard let (unit, prefix) = TSPayloadBytes.unitLayout(file) else {
            throw ExpectationError("not a transport stream")
        }
        var pmtPID: Int?
        var audioPID: Int?
        var start = 0
        while start + unit <= file.count {
            let p = start + prefix
            defer { start += unit }
            guard file[p] == 0x47 else { throw ExpectationError("no sync byte at \(p)") }
            let pid = Int(file[p + 1] & 0x1F) << 8 | Int(file[p + 2])
            let unitStart = file[p + 1] & 0x40 != 0
            let control = file[p + 3] >> 4 & 3
            guard control & 1 == 1 else { continue }
            var payload = p + 4
            if control & 2 != 0 { payload += 1 + Int(file[p + 4]) }
            let end = p + 188
            guard payload < end else { continue }
            if pid == 0, unitStart, pmtPID == nil {
                let s = payload + 1 + Int(file[payload])
                pmtPID = Int(file[s + 10] & 0x1F) << 8 | Int(file[s + 11])
            } else if pid == pmtPID, unitStart, audioPID == nil {
                let s = payload + 1 + Int(file[payload])
                let sectionEnd = s + 3 + (Int(file[s + 1] & 0x0F) << 8 | Int(file[s + 2])) - 4
                var i = s + 12 + (Int(file[s + 10] & 0x0F) << 8 | Int(file[s + 11]))
                var privatePID: Int?
                while i + 5 <= sectionEnd, audioPID == nil {
                    let type = file[i]
                    let info = Int(file[i + 3] & 0x0F) << 8 | Int(file[i + 4])
                    var tags: [UInt8] = []
                    var d = i + 5
                    while d + 2 <= i + 5 + info {
                        tags.append(file[d])
                        d += 2 + Int(file[d + 1])
                    }
                    if [0x03, 0x04, 0x0F, 0x11, 0x81, 0x87].contains(type)
                        || (type == 0x06 && (tags.contains(0x6A) || tags.contains(0x7A)))
                    {
                        audioPID = Int(file[i + 1] & 0x1F) << 8 | Int(file[i + 2])
                    } else if type == 0x06, privatePID == nil {
                        privatePID = Int(file[i + 1] & 0x1F) << 8 | Int(file[i + 2])
                    }
                    i += 5 + info
                }
                if audioPID == nil { audioPID = privatePID }
            } else if pid == audioPID {
                if unitStart { payload += 9 + Int(file[payload + 8]) }
                for k in payload..<end {
                    bytes.append(file[k])
                    offsets.append(Int64(k))
                }
            }
        }
        guard audioPID != nil else { throw ExpectationError("no audio stream in the first program") }
    }
}

extension ExpectedStream {
    /// A transport stream's expectation (docs/testing.md, "MPEG-TS"): ffprobe's packets are the
    /// elementary stream's frames (ADTS headers included) with a `pos` only at a PES start, so each
    /// packet is placed by the sizes before it in the elementary stream (``TSLayout``); an ADTS packet
    /// loses its header (7 bytes, 9 with a CRC). dataOffset is ffprobe's first `pos` (the transport
    /// packet that starts the first PES packet); audioDataByteCount is the frames' bytes.
    static func transportStream(oracle: Oracle, file: [UInt8], entry: CodecTable.Entry, rate: Int, channels: Int)
        throws(ExpectationError) -> ExpectedStream
    {
        guard let summary = oracle.summary, let firstPos = summary.firstPos, let bytes = summary.bytes else {
            throw ExpectationError("oracle summary lacks first_pos or bytes")
        }
        let layout = try TSLayout(file)
        let adts = oracle.stream?.codecName == "aac"
        var packets: [PacketSpan] = []
        var es = 0
        for (i, p) in oracle.packets.enumerated() {
            let size = Int(p.size)
            guard es + size <= layout.bytes.count else {
                throw ExpectationError("oracle packet \(i) runs past the elementary stream")
            }
            var header = 0
            if adts {
                guard layout.bytes[es] == 0xFF, layout.bytes[es + 1] & 0xF6 == 0xF0 else {
                    throw ExpectationError("oracle packet \(i) is not an ADTS frame")
                }
                header = layout.bytes[es + 1] & 1 == 1 ? 7 : 9
            }
            packets.append(PacketSpan(offset: layout.offsets[es + header], size: Int64(size - header)))
            es += size
        }
        guard let frames = summary.durationSum else { throw ExpectationError("oracle lacks duration_sum") }
        return ExpectedStream(
            format: entry.format, sampleRate: rate, channels: channels, pcm: nil, constantPacketSize: nil,
            dataOffset: firstPos, byteCount: bytes, frameCount: frames, packets: packets, info: [:],
            source: "ffprobe oracle (transport stream: packets placed in the elementary stream)")
    }
}
