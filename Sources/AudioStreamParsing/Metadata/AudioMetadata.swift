/// Metadata found in a stream: the info dictionary, raw tags, artwork and chapters.
///
/// `info` uses Apple's `kAFInfoDictionary_*` key strings (see ``InfoKey``) with string values, as
/// CoreAudio's `kAudioFileStreamProperty_InfoDictionary` does. `tags` keeps every tag as written,
/// with where it came from.
public struct AudioMetadata: Hashable, Sendable {
    /// Apple info-dictionary entries: key (``InfoKey``, written as Apple's key string) to string value.
    public var info: [InfoKey: String]
    /// Every tag as written, in stream order.
    public var tags: [Tag]
    /// Embedded pictures.
    public var artwork: [Artwork]
    /// Chapters, in time order.
    public var chapters: [Chapter]

    /// Creates metadata.
    public init(info: [InfoKey: String] = [:], tags: [Tag] = [], artwork: [Artwork] = [], chapters: [Chapter] = []) {
        self.info = info
        self.tags = tags
        self.artwork = artwork
        self.chapters = chapters
    }

    /// True when nothing is known.
    public var isEmpty: Bool { info.isEmpty && tags.isEmpty && artwork.isEmpty && chapters.isEmpty }

    /// Adds a raw tag and, when `infoKey` is given and not yet set, the info-dictionary entry.
    public mutating func add(_ tag: Tag, infoKey: InfoKey?) {
        tags.append(tag)
        if let infoKey, info[infoKey] == nil, !tag.value.isEmpty { info[infoKey] = tag.value }
    }

    /// One tag as written in the stream.
    public struct Tag: Hashable, Sendable {
        /// Where the tag came from (`"riff-info"`, `"id3v2"`, `"aiff-text"`, `"caf-info"`, `"bext"`, …).
        public var source: String
        /// The key as written (`"INAM"`, `"TIT2"`, `"NAME"`, `"title"`).
        public var key: String
        /// The value as text.
        public var value: String

        /// Creates a tag.
        public init(source: String, key: String, value: String) {
            self.source = source
            self.key = key
            self.value = value
        }
    }

    /// An embedded picture.
    public struct Artwork: Hashable, Sendable {
        /// The MIME type, e.g. `image/jpeg`.
        public var mimeType: String
        /// The ID3/FLAC picture type (3 = front cover), or 0 when unknown.
        public var pictureType: UInt32
        /// The picture's bytes.
        public var data: [UInt8]

        /// Creates artwork.
        public init(mimeType: String, pictureType: UInt32, data: [UInt8]) {
            self.mimeType = mimeType
            self.pictureType = pictureType
            self.data = data
        }
    }

    /// A chapter.
    public struct Chapter: Hashable, Sendable {
        /// The title.
        public var title: String
        /// Start time in seconds.
        public var startSeconds: Double
        /// End time in seconds, when known.
        public var endSeconds: Double?

        /// Creates a chapter.
        public init(title: String, startSeconds: Double, endSeconds: Double?) {
            self.title = title
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
        }
    }
}
