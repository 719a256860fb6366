/// What goes into each `audioinspect/1` document: the keys `--fields` selects (all by default) and
/// whether artwork carries its bytes (`--artwork`).
///
/// `--fields` takes a comma-separated list of group names and document keys (docs/cli.md, "Choosing
/// the fields"); `schema`, `source` and `error` are always written. A document with every key is the
/// default, so the single-file `--json` document is unchanged.
struct DocumentOptions: Equatable {
    /// The document keys to write, or `nil` for every key.
    var keys: Set<String>?
    /// Add each picture's bytes, base64, as `data` (`--artwork`).
    var artworkData = false

    /// The keys of the document in order, without `schema`, `source` and `error` (always written).
    static let documentKeys = [
        "fileType", "dataFormat", "formatList", "magicCookie", "channelLayout", "dataOffset", "audioDataByteCount",
        "audioDataPacketCount", "maximumPacketSize", "packetSizeUpperBound", "averageBytesPerPacket", "bitRate",
        "packetTableInfo", "duration", "parsed", "metadata", "tags", "artwork", "chapters", "packets", "diagnostics",
        "tracks", "links",
    ]

    /// Group names and the keys they stand for.
    static let groups: [(name: String, keys: [String])] = [
        ("format", ["fileType", "dataFormat", "formatList", "magicCookie", "channelLayout"]),
        (
            "stream",
            [
                "dataOffset", "audioDataByteCount", "audioDataPacketCount", "maximumPacketSize",
                "packetSizeUpperBound", "averageBytesPerPacket", "bitRate", "packetTableInfo",
            ]
        ),
        ("duration", ["duration", "links"]),
        ("tags", ["metadata", "tags", "links"]),
        ("all", documentKeys),
    ]

    /// True when `key` is written.
    func includes(_ key: String) -> Bool {
        keys?.contains(key) ?? true
    }

    /// The keys a `--fields` value names (groups expanded), or the message of a usage error for a name
    /// that is neither a group nor a key.
    static func parseFields(_ text: String) -> Result<Set<String>, UsageError> {
        var keys = Set<String>()
        for name in text.split(separator: ",", omittingEmptySubsequences: true).map(String.init) {
            if let group = groups.first(where: { $0.name == name }) {
                keys.formUnion(group.keys)
            } else if documentKeys.contains(name) {
                keys.insert(name)
            } else {
                return .failure(
                    UsageError(
                        message: "Unknown field '\(name)' for '--fields' (groups: "
                            + groups.map(\.name).joined(separator: ", ") + "; or a document key)"))
            }
        }
        guard !keys.isEmpty else { return .failure(UsageError(message: "'--fields' needs at least one field")) }
        return .success(keys)
    }
}

/// A command-line error (exit status 64).
struct UsageError: Error, Equatable {
    var message: String
}
