import AudioInspectCommon

/// One input of a scan: a file (or `-`) named on the command line or found in a directory.
struct ScanItem: Equatable {
    /// The path as shown (`source`, messages): bytes that are not UTF-8 as `\xNN`.
    var name: String
    /// The path's bytes, opened as they are.
    var rawPath: [UInt8]
}

/// Expands a scan's inputs into the files to inspect (docs/cli.md, "Scanning a library").
///
/// - A file (or `-`) named on the command line is inspected whatever its name.
/// - A directory contributes the files it holds whose extension is an audio one (`audioExtensions`,
///   any case; every file with `--all-files`), in the byte order of their names; with `-r` its
///   subdirectories too, depth first, in the same order. Symbolic links are followed.
/// - Problems are reported, never fatal: a directory that cannot be read, an entry that cannot be
///   examined (a dangling symbolic link, no permission) and a symbolic link loop (a directory met again
///   below itself, or one already scanned through another link) are `notes`, printed on standard error
///   (`audioinspect: warning: …`). The first two make the scan's exit status 1; a loop does not (nothing
///   was missed).
struct LibraryWalker {
    /// The extensions of the files a directory contributes (lower case, without the dot): the formats
    /// the library parses.
    static let audioExtensions: Set<String> = [
        "mp3", "mp2", "mp1", "mpga", "m4a", "m4b", "m4p", "m4r", "mp4", "3gp", "3g2", "mov", "aac", "adts", "flac",
        "fla", "ogg", "oga", "opus", "spx", "wav", "wave", "bwf", "rf64", "w64", "aif", "aiff", "aifc", "caf", "au",
        "snd", "ac3", "loas", "latm", "amr", "awb", "mka", "webm",
    ]

    /// Descend into subdirectories (`-r`).
    var recursive: Bool
    /// Take every file of a directory, not only audio extensions (`--all-files`).
    var allFiles: Bool

    /// What the walk found.
    struct Result {
        var items: [ScanItem] = []
        /// Warnings, in the order they were met (`audioinspect: warning: …` lines without the prefix).
        var notes: [String] = []
        /// True when an entry could not be examined or a directory read (the exit status is then 1).
        var missedEntries = false
    }

    /// Expands `paths` (as given: text and bytes), in order.
    func walk(_ paths: [(name: String, raw: [UInt8])]) -> Result {
        var result = Result()
        var visited = Set<DirectoryID>()
        for (name, raw) in paths {
            guard name != "-", let status = Platform.status(raw), status.kind == .directory else {
                // A file, standard input, or a path that cannot be examined: inspected, so that its
                // document says what is wrong with it (`cannot open …`).
                result.items.append(ScanItem(name: name, rawPath: raw))
                continue
            }
            visit(directory: raw, id: DirectoryID(status), ancestors: [], visited: &visited, into: &result)
        }
        return result
    }

    /// A directory's identity (device, inode).
    private struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ status: Platform.FileStatus) {
            device = status.device
            inode = status.inode
        }
    }

    private func visit(
        directory raw: [UInt8], id: DirectoryID, ancestors: Set<DirectoryID>, visited: inout Set<DirectoryID>,
        into result: inout Result
    ) {
        let shown = TerminalText.decodingInvalidBytes(raw)
        if ancestors.contains(id) {
            result.notes.append("skipping '\(shown)': symbolic link loop (a directory that contains it)")
            return
        }
        guard visited.insert(id).inserted else {
            result.notes.append("skipping '\(shown)': directory already scanned through another path")
            return
        }
        guard let names = Platform.directoryEntries(raw) else {
            result.notes.append("cannot read directory '\(shown)': \(Platform.describe(Platform.lastError))")
            result.missedEntries = true
            return
        }
        let base = raw.last == UInt8(ascii: "/") ? raw : raw + [UInt8(ascii: "/")]
        var subdirectories: [([UInt8], DirectoryID)] = []
        for entry in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let path = base + entry
            // Audio files by extension need no `stat` to be chosen, but every entry does to tell files
            // from directories (a symbolic link can name either).
            let wanted = allFiles || Self.hasAudioExtension(entry)
            guard wanted || recursive else { continue }
            guard let status = Platform.status(path) else {
                let code = Platform.lastError
                result.notes.append(
                    "cannot examine '\(TerminalText.decodingInvalidBytes(path))': \(Platform.describe(code))")
                result.missedEntries = true
                continue
            }
            switch status.kind {
            case .regular:
                if wanted {
                    result.items.append(ScanItem(name: TerminalText.decodingInvalidBytes(path), rawPath: path))
                }
            case .directory:
                if recursive { subdirectories.append((path, DirectoryID(status))) }
            case .other:
                continue  // devices, FIFOs, sockets: never read by a scan
            }
        }
        // Files of a directory first, then its subdirectories (each in name order).
        var inner = ancestors
        inner.insert(id)
        for (path, subID) in subdirectories {
            visit(directory: path, id: subID, ancestors: inner, visited: &visited, into: &result)
        }
    }

    /// True when `name` ends with `.` and one of `audioExtensions` (any case).
    static func hasAudioExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, name.count - dot - 1 <= 5 else { return false }
        let ext = String(decoding: name[(dot + 1)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        return audioExtensions.contains(ext)
    }
}
