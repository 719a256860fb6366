import AudioStreamParsing

/// `audioinspect http://…`: fetches the URL with `HTTPInput` and either inspects the body like a file
/// (the summary or the `audioinspect/1` document, then the ICY titles in text mode) or, with
/// `--follow`, hands it to `StreamFollower`.
enum URLInspection {
    /// Runs the URL mode; returns the exit status.
    static func run(url text: String, follow: Bool, maxSeconds: Double?, json: Bool, packets: Bool, chunkSize: Int?)
        -> Int32
    {
        guard let url = WebURL(string: text) else {
            StandardOutput.writeError("audioinspect: error io: '\(text)' is not a valid URL\n")
            return 1
        }
        let requested = MonotonicClock.now()
        let input: HTTPInput
        do {
            input = try HTTPInput(url: url)
        } catch {
            let failure = InspectionReport.Failure(code: "io", offset: nil, message: error.message)
            StandardOutput.writeError(failure.line + "\n")
            return 1
        }
        if follow {
            return StreamFollower(
                input: input, json: json, packets: packets, maxSeconds: maxSeconds, requested: requested
            ).run()
        }
        input.deadline = maxSeconds.map { MonotonicClock.after($0) }
        var source = input
        let options = InspectOptions(collectPackets: packets, chunkSize: chunkSize)
        let report = Inspector.inspect(&source, source: text, options: options)
        input.close()
        let ok = report.print(json: json, packets: packets) { out in
            for title in input.titles {
                out.write("Stream title  \(title.metadata.streamTitle ?? title.metadata.description)")
                out.write("  (audio offset \(title.audioOffset))\n")
            }
        }
        return ok ? 0 : 1
    }
}
