import AudioInspectCommon
import AudioStreamParsing

/// `audioinspect http://…`: fetches the URL with `HTTPInput` and either inspects the body like a file
/// (the summary or the `audioinspect/1` document, then the ICY title changes in text mode) or, with
/// `--follow`, hands it to `StreamFollower`.
enum URLInspection {
    /// ICY title changes the text summary keeps (the rest are counted): a stream may change its title
    /// after every byte.
    static let keptTitleChanges = 1_000

    /// Runs the URL mode; returns the exit status.
    static func run(url text: String, follow: Bool, maxSeconds: Double?, json: Bool, packets: Bool, chunkSize: Int?)
        -> Int32
    {
        guard let url = WebURL(string: text) else {
            let problem = WebURL.problem(with: text) ?? "is not a valid URL"
            StandardOutput.writeErrorLine("audioinspect: error io: '\(text)' \(problem)")
            return 1
        }
        Platform.catchInterrupts()
        defer { Platform.restoreInterrupts() }
        let requested = MonotonicClock.now()
        let deadline = maxSeconds.map { requested + $0 }
        let input: HTTPInput
        do {
            input = try HTTPInput(
                url: url, maxSeconds: maxSeconds, deadline: deadline, hls: HLSFileInput.isPlaylist(url.absoluteString),
                stop: { Platform.interruptRequested })
        } catch {
            StandardOutput.writeErrorLine(
                InspectionReport.Failure(code: "io", offset: nil, message: error.message).line)
            return Platform.interruptRequested ? InspectionReport.interruptedStatus : 1
        }
        if follow {
            return StreamFollower(input: input, json: json, packets: packets, requested: requested).run()
        }
        // The text of each change (not the whole block: a block may hold hundreds of fields).
        var titles: [(text: String, audioOffset: Int64)] = []
        var moreTitles = 0
        input.onTitle = { metadata, offset in
            if titles.count < keptTitleChanges {
                titles.append((metadata.streamTitle ?? metadata.description, offset))
            } else {
                moreTitles += 1
            }
        }
        var source = input
        let options = InspectOptions(collectPackets: packets, chunkSize: chunkSize)
        let report = Inspector.inspect(&source, source: text, options: options)
        input.close()
        return report.print(json: json, packets: packets) { out in
            for title in titles {
                out.write("Stream title  \(TerminalText.sanitized(title.text))  (audio offset \(title.audioOffset))\n")
            }
            if moreTitles > 0 { out.write("Stream title  … and \(moreTitles) more changes\n") }
        }
    }
}
