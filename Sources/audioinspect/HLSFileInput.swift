import AudioInspectCommon
import AudioStreamHLS

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `audioinspect playlist.m3u8` (a local file): the HLS presentation as one stream, the segments' bytes
/// (decrypted, each fMP4 initialization section once) one after the other, read from the files the playlist
/// names (relative to it; `EXT-X-BYTERANGE` sub-ranges read as such). No networking: an `http://` segment
/// URI in a local playlist is an error (docs/hls.md, "audioinspect").
struct HLSFileInput: ByteSource {
    private let reader: HLSBlockingReader
    private var pending: [UInt8] = []
    private var position = 0

    /// True for a path or URL whose path ends in `.m3u8` or `.m3u` (case-insensitive; query and fragment
    /// ignored).
    static func isPlaylist(_ text: String) -> Bool {
        var path = text[...]
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u8") || lower.hasSuffix(".m3u")
    }

    init(path: String) {
        reader = HLSBlockingReader(
            session: HLSSession(url: path), fetch: Self.readFile,
            sleep: { seconds in usleep(UInt32(min(max(seconds, 0), 30) * 1e6)) }, now: { MonotonicClock.now() })
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while position == pending.count {
            let data: HLSSegmentData?
            do {
                data = try reader.next()
            } catch {
                throw InputError(message: error.description, offset: nil)
            }
            guard let data else { return 0 }
            (pending, position) = (data.bytes, 0)
        }
        let n = min(buffer.count, pending.count - position)
        pending.withUnsafeBytes { raw in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[position..<(position + n)]))
        }
        position += n
        return n
    }

    /// Reads a playlist, key or segment file (the byte range of it, when given), at most `maxBytes`.
    static func readFile(_ request: HLSResourceRequest) -> Result<[UInt8], HLSFetchFailure> {
        if request.url.contains("://") {
            return .failure(HLSFetchFailure("a URL in a local playlist (use an http:// playlist)"))
        }
        var input: FileInput
        do {
            input = try FileInput(path: request.url)
        } catch {
            return .failure(HLSFetchFailure(error.message))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let limit = request.byteRange.map { Int($0.offset + $0.length) } ?? request.maxBytes + 1
        while bytes.count < limit {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { buffer in try input.read(into: buffer) }
            } catch {
                return .failure(HLSFetchFailure((error as? InputError)?.message ?? "\(error)"))
            }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        guard let range = request.byteRange else { return .success(bytes) }
        guard Int(range.offset + range.length) <= bytes.count else {
            return .failure(
                HLSFetchFailure("the byte range \(range.length)@\(range.offset) is past the end of the file"))
        }
        return .success(Array(bytes[Int(range.offset)..<Int(range.offset + range.length)]))
    }
}
