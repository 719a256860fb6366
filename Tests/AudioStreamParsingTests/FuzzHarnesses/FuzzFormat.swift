#if !FUZZ_SINGLE_MODULE
@testable import AudioStreamParsing
#endif

/// The format harnesses (`FuzzWAVE` … `FuzzFLAC`, and `FuzzAny` with `only == nil`): the input is one
/// stream, parsed whole by the forced format's parser (`ParserOptions.onlyFileTypes`), then seeked a
/// few times.
///
/// Checks: every packet lies within the input and its bytes are the input's bytes at its offset;
/// packets do not overlap or go backwards; no packet before `readyToProducePackets`, which comes with
/// a `dataFormat`; every announced property can be read; the packet count matches
/// `parsedPacketCount`; translations and seeks do not trap, and packets after a seek are again the
/// input's bytes at their offsets.
enum FuzzFormat {
    static func run(_ input: [UInt8], only: Set<AudioFileType>?) throws {
        let parser = AudioStreamParser(options: FuzzHarness.options(only: only))
        let recorder = FuzzRecorder(parser, input: input)
        var failed = false
        do {
            try input.withUnsafeBytes { try parser.parse($0) }
            try parser.finish()
        } catch {
            failed = true
        }
        try recorder.throwIfFailed("whole parse")
        try FuzzHarness.check(
            recorder.packetCount == parser.parsedPacketCount,
            "\(recorder.packetCount) packets delivered but parsedPacketCount is \(parser.parsedPacketCount)")
        let count = parser.parsedPacketCount
        // Translations must not trap, whatever the geometry.
        for p in [0, count / 2, count - 1, count, Int64.max / 2] where p >= 0 {
            _ = parser.packetToFrame(p)
            _ = parser.packetToByte(p)
            _ = parser.frameToPacket(p)
            _ = parser.byteToPacket(p)
        }
        guard !failed, count > 0, parser.dataOffset != nil else { return }
        for packet in Set([0, count / 2, count - 1]) {
            let target: SeekTarget
            do { target = try parser.seek(toPacket: packet) } catch { continue }
            recorder.lastPacketEnd = -1
            let start = target.absoluteOffset
            guard start >= 0, start <= Int64(input.count) else { continue }
            do {
                let rest = input[Int(start)...].prefix(16 * 1024)
                recorder.limitView(to: Int(start) + rest.count)
                try rest.withUnsafeBytes { try parser.parse($0, flags: .discontinuity) }
                try parser.finish()
            } catch {
                return
            }
            try recorder.throwIfFailed("after seek to packet \(packet) (offset \(start))")
        }
    }
}
