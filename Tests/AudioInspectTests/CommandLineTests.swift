import Testing

@testable import AudioInspectCommon
@testable import audioinspect

/// The hand-written command line (`CommandLineOptions`) and URL parser (`WebURL`) of `audioinspect`.
@Suite("audioinspect command line and URLs")
struct CommandLineTests {
    @Test("options before or after the file, --name value and --name=value")
    func options() {
        var expected = CommandLineOptions()
        expected.file = "a.mp3"
        expected.json = true
        expected.packets = true
        expected.chunkSize = 7
        expected.noProgress = true
        for arguments in [
            ["--json", "a.mp3", "--packets", "--chunk-size", "7", "--no-progress"],
            ["a.mp3", "--chunk-size=7", "--no-progress", "--packets", "--json"],
        ] {
            #expect(CommandLineOptions.parse(arguments) == .run(expected), "\(arguments)")
        }
        var stdin = CommandLineOptions()
        stdin.file = "-"
        #expect(CommandLineOptions.parse(["-"]) == .run(stdin))
        var dashed = CommandLineOptions()
        dashed.file = "--json"
        #expect(CommandLineOptions.parse(["--", "--json"]) == .run(dashed))
        var url = CommandLineOptions()
        url.file = "http://h/s"
        url.follow = true
        url.maxSeconds = 2.5
        #expect(CommandLineOptions.parse(["http://h/s", "--follow", "--max-seconds", "2.5"]) == .run(url))
        #expect(CommandLineOptions.parse(["-h"]) == .help)
        #expect(CommandLineOptions.parse(["x", "--help"]) == .help)
    }

    @Test(
        "usage errors",
        arguments: [
            [], ["--bogus", "a"], ["a", "--chunk-size"], ["a", "--chunk-size", "x"],
            ["a", "--chunk-size", "0"], ["a", "--max-seconds", "-1"], ["a", "--follow"], ["a", "--json=1"],
        ])
    func usageErrors(_ arguments: [String]) {
        guard case .usageError = CommandLineOptions.parse(arguments) else {
            Issue.record("\(arguments) should be a usage error")
            return
        }
    }

    @Test("URLs: scheme, host, port, path, query (RFC 3986 §3)")
    func urls() throws {
        let a = try #require(WebURL(string: "HTTP://Example.org:8000/live/stream.mp3?x=1#frag"))
        #expect(a.scheme == "http")
        #expect(a.host == "Example.org")
        #expect(a.port == 8000)
        #expect(a.path == "/live/stream.mp3")
        #expect(a.query == "x=1")
        #expect(a.pathAndQuery == "/live/stream.mp3?x=1")
        #expect(a.hostHeader == "Example.org:8000")
        let b = try #require(WebURL(string: "https://[::1]/"))
        #expect(b.host == "::1" && b.port == nil && b.path == "/" && b.hostHeader == "[::1]")
        #expect(WebURL(string: "https://h")?.path == "/")
        for bad in ["ftp://h/x", "h/x", "http:///x", "http://h:99999/", "http://[::1/"] {
            #expect(WebURL(string: bad) == nil, "\(bad)")
        }
    }

    @Test("redirect locations resolve against the request URL (RFC 3986 §5.2)")
    func redirects() throws {
        let base = try #require(WebURL(string: "http://h:8080/a/b.mp3?q"))
        func target(_ location: String) -> String? { try? base.resolving(location).get().absoluteString }
        #expect(target("https://other/x") == "https://other/x")
        #expect(target("//cdn/y") == "http://cdn/y")
        #expect(target("/z") == "http://h:8080/z")
        #expect(target("c.mp3") == "http://h:8080/a/c.mp3")
    }

    /// Redirect targets and URLs are validated (issue 21, defect 4): only http and https (a `file:` or
    /// `ftp:` target is refused, not taken as a relative path), printable ASCII only (a space, a bare LF
    /// or CR, a control character or DEL could end the request line or start a header), a valid host.
    @Test("redirect targets that are refused")
    func refusedRedirects() throws {
        let base = try #require(WebURL(string: "http://h/a/b.mp3"))
        for location in [
            "file:///etc/passwd", "file:/etc/passwd", "ftp://h/x", "data:audio/mpeg,x", "javascript:x",
            "/next\nX-Injected: yes", "/next\r\nX-Injected: yes", "/a b", "/a\u{7F}", "/caf\u{E9}", "",
            "http://ho st/", "http://h\u{1B}[2J/", "http://[::1/", "http://h:99999/",
        ] {
            guard case .failure(let refused) = base.resolving(location) else {
                Issue.record("\(location.debugDescription) was followed")
                continue
            }
            #expect(!refused.reason.isEmpty)
        }
        #expect(WebURL.problem(with: "ftp://h/x") == "uses the scheme 'ftp' (only http and https are fetched)")
        #expect(WebURL(string: "http://h/a b") == nil)
        #expect(WebURL(string: "http://h/\u{0A}") == nil)
    }
}
