#if !FUZZ_SINGLE_MODULE
import AudioStreamParsing
#endif

/// libFuzzer entry: the whole input is one stream; format detection chooses the parser.
/// Any `AudioStreamError` is an acceptable outcome; a trap, a hang or unbounded memory is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAny(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let parser = AudioStreamParser()
    var packets = 0
    parser.packetsHandler = { batch in
        packets += batch.packetCount
        // Touch every packet's bytes so a wrong pointer shows up under AddressSanitizer.
        var sum: UInt8 = 0
        for i in 0..<batch.packetCount { for b in batch.packetBytes(at: i) { sum &+= b } }
        _ = sum
    }
    parser.propertyListener = { parser, id in _ = try? parser.value(of: id) }
    do {
        try parser.parse(bytes)
        try parser.finish()
        if let map = parser.audioDataPacketCount, map > 0 {
            _ = try? parser.seek(toPacket: Int64(map / 2))
        }
    } catch {}
    return 0
}
