import AudioStreamHLS
import AudioStreamParsing
import AudioStreamTestSupport
import Foundation

/// In-memory resources for the session tests: a map from URL to bytes (or to a failure), with a virtual
/// clock, so live reloads and stalls run in no real time.
final class MemoryFetcher: @unchecked Sendable {
    var resources: [String: [UInt8]] = [:]
    /// URL → how many more fetches fail before it answers.
    var failures: [String: Int] = [:]
    var requests: [HLSResourceRequest] = []
    var now = 0.0

    func fetch(_ request: HLSResourceRequest) -> Result<[UInt8], HLSFetchFailure> {
        requests.append(request)
        if let left = failures[request.url], left > 0 {
            failures[request.url] = left - 1
            return .failure(HLSFetchFailure("HTTP 404"))
        }
        guard let bytes = resources[request.url] else { return .failure(HLSFetchFailure("HTTP 404")) }
        guard let range = request.byteRange else { return .success(bytes) }
        let start = Int(range.offset)
        let end = start + Int(range.length)
        guard start >= 0, end <= bytes.count else { return .failure(HLSFetchFailure("HTTP 416")) }
        return .success(Array(bytes[start..<end]))
    }

    /// Every file under `Fixtures/hls/<folder>`, keyed by its path.
    func addFixtures(_ folder: String) throws {
        let dir = FixtureCatalog.fixturesRoot + "/hls/" + folder
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            resources[dir + "/" + name] = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
        }
    }

    static func fixturePath(_ path: String) -> String {
        (FixtureCatalog.fixturesRoot + "/hls/" + path as NSString).standardizingPath
    }
}

extension MemoryFetcher: HLSFetcher {
    func fetch(_ request: HLSResourceRequest) async throws -> [UInt8] {
        try (fetch(request) as Result<[UInt8], HLSFetchFailure>).get()
    }
}

/// What a whole presentation gave.
struct HLSRun {
    var events: [HLSEvent] = []
    var segments: [HLSSegmentData] = []
    var packets: [[UInt8]] = []
    var formats: [StreamDescription] = []
    var discontinuities = 0
    var waits: [Double] = []
    var error: HLSError?
}

/// Plays `url` with the session and the driver on the fetcher's virtual clock (waits advance it).
func play(
    _ url: String, fetcher: MemoryFetcher, options: HLSSessionOptions = HLSSessionOptions(),
    onWait: (MemoryFetcher) -> Void = { _ in },
    seek: (HLSSession, HLSParserDriver, Int) throws(HLSError) -> Void = { _, _, _ in }
) -> HLSRun {
    let session = HLSSession(url: url, options: options)
    let driver = HLSParserDriver()
    var run = HLSRun()
    func drain() {
        for event in driver.takeEvents() {
            run.events.append(event)
            switch event {
            case .stream(.packets(let batch)):
                for i in 0..<batch.packetCount { run.packets.append(Array(batch.packetBytes(at: i))) }
            case .stream(.property(.dataFormat(let format))): run.formats.append(format)
            case .discontinuity: run.discontinuities += 1
            default: break
            }
        }
    }
    do throws(HLSError) {
        loop: for step in 0..<10_000 {
            try seek(session, driver, step)
            switch try session.next(now: fetcher.now) {
            case .fetch(let request): try session.deliver(fetcher.fetch(request), now: fetcher.now)
            case .wait(let seconds):
                run.waits.append(seconds)
                fetcher.now += seconds
                onWait(fetcher)
            case .data(let data):
                run.segments.append(data)
                try driver.feed(data, url: data.segment.uri)
            case .end:
                try driver.finish()
                drain()
                break loop
            }
            drain()
        }
    } catch {
        drain()
        run.error = error
    }
    return run
}

/// `nb_read_packets`, `sample_rate` and `channels` of an `index.ffprobe.json` oracle.
func hlsOracle(_ path: String) throws -> (packets: Int, rate: Double, channels: Int) {
    let data = try Data(contentsOf: URL(fileURLWithPath: FixtureCatalog.fixturesRoot + "/hls/" + path))
    let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    let stream = (json["streams"] as! [[String: Any]])[0]
    return (
        Int(stream["nb_read_packets"] as! String)!, Double(stream["sample_rate"] as! String)!,
        stream["channels"] as! Int
    )
}
