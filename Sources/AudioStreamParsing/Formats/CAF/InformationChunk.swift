/// The body of a CAF `info` chunk (`CAFStringsChunk` of key/value pairs; Apple "Core Audio Format
/// Specification", "Annotations", "Information Chunk").
///
/// ```
/// offset  size  field
///      0     4  mNumEntries   UInt32
///      4     …  mNumEntries × (key NUL value NUL), UTF-8
/// ```
///
/// The specification's keys are Apple's info-dictionary keys (`artist`, `album`, `title`, `year`,
/// `comments`, `encoding application`, …), so each pair maps 1:1 into `AudioMetadata.info`. Writers
/// that use other spellings (ffmpeg writes `comment`, `date`, `encoder`; libsndfile `software`) also
/// fill the Apple key when it is not already set; every pair stays in `tags` as written, with source
/// `"caf-info"`.
enum InformationChunk {
    /// The chunk, for messages.
    static let structure = Structure("caf", "info")
    /// The tag source name.
    static let tagSource = "caf-info"

    /// Other writers' keys and the Apple key they mean.
    static let aliases: [String: InfoKey] = [
        "comment": InfoKey.comments,
        "date": InfoKey.recordedDate,
        "encoder": InfoKey.encodingApplication,
        "software": InfoKey.encodingApplication,
    ]

    /// What a decoded chunk held.
    struct Contents {
        /// The pairs, in order.
        var pairs: [(key: String, value: String)]
        /// `mNumEntries` as written.
        var declaredCount: UInt32
    }

    /// Decodes a whole `info` body: up to `mNumEntries` pairs, stopping where the body ends (a last
    /// value without its NUL is kept). `nil` when the body is shorter than the count field.
    static func decode(_ bytes: [UInt8]) -> Contents? {
        var r = ByteReader(bytes)
        guard let count = r.readInteger(as: UInt32.self, endianness: .big) else { return nil }
        var pairs: [(key: String, value: String)] = []
        var index = 4
        func nextString() -> String? {
            guard index < bytes.count else { return nil }
            let end = bytes[index...].firstIndex(of: 0) ?? bytes.count
            let s = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            return s
        }
        while UInt32(pairs.count) < count, let key = nextString() {
            guard let value = nextString() else { break }
            pairs.append((key, value))
        }
        return Contents(pairs: pairs, declaredCount: count)
    }

    /// Adds the pairs to `metadata`.
    static func add(_ contents: Contents, to metadata: inout AudioMetadata) {
        for (key, value) in contents.pairs {
            metadata.add(AudioMetadata.Tag(source: tagSource, key: key, value: value), infoKey: InfoKey(rawValue: key))
            if let alias = aliases[key], metadata.info[alias] == nil, !value.isEmpty {
                metadata.info[alias] = value
            }
        }
    }
}
