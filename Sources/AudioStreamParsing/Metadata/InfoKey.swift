/// A key of Apple's info dictionary (CoreAudio's `kAFInfoDictionary_*` strings, the keys of
/// `kAudioFileStreamProperty_InfoDictionary`): the key type of ``AudioMetadata/info``.
///
/// | Swift name                     | `kAFInfoDictionary_` +         | key string                        |
/// | ------------------------------ | ------------------------------ | --------------------------------- |
/// | `artist`                       | `Artist`                       | `artist`                          |
/// | `album`                        | `Album`                        | `album`                           |
/// | `title`                        | `Title`                        | `title`                           |
/// | `subTitle`                     | `SubTitle`                     | `subtitle`                        |
/// | `tempo`                        | `Tempo`                        | `tempo`                           |
/// | `keySignature`                 | `KeySignature`                 | `key signature`                   |
/// | `timeSignature`                | `TimeSignature`                | `time signature`                  |
/// | `trackNumber`                  | `TrackNumber`                  | `track number`                    |
/// | `year`                         | `Year`                         | `year`                            |
/// | `recordedDate`                 | `RecordedDate`                 | `recorded date`                   |
/// | `composer`                     | `Composer`                     | `composer`                        |
/// | `lyricist`                     | `Lyricist`                     | `lyricist`                        |
/// | `genre`                        | `Genre`                        | `genre`                           |
/// | `comments`                     | `Comments`                     | `comments`                        |
/// | `copyright`                    | `Copyright`                    | `copyright`                       |
/// | `isrc`                         | `ISRC`                         | `ISRC`                            |
/// | `sourceEncoder`                | `SourceEncoder`                | `source encoder`                  |
/// | `encodingApplication`          | `EncodingApplication`          | `encoding application`            |
/// | `nominalBitRate`               | `NominalBitRate`               | `nominal bit rate`                |
/// | `channelLayout`                | `ChannelLayout`                | `channel layout`                  |
/// | `approximateDurationInSeconds` | `ApproximateDurationInSeconds` | `approximate duration in seconds` |
/// | `sourceBitDepth`               | `SourceBitDepth`               | `source bit depth`                |
///
/// The set is open, as Apple's is ("components are free to add other keys"): a CAF `info` chunk's
/// keys are kept as written, so `info` may hold keys that are not listed here. A string literal is an
/// `InfoKey` (`metadata.info["artist"]`); the static members spell the known keys without typos.
public struct InfoKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key string, e.g. `"track number"`.
    public var rawValue: String
    /// Wraps a key string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a key string written as a literal, e.g. `"artist"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `kAFInfoDictionary_Artist`
    public static let artist = Self(rawValue: "artist")
    /// `kAFInfoDictionary_Album`
    public static let album = Self(rawValue: "album")
    /// `kAFInfoDictionary_Title`
    public static let title = Self(rawValue: "title")
    /// `kAFInfoDictionary_SubTitle`
    public static let subTitle = Self(rawValue: "subtitle")
    /// `kAFInfoDictionary_Tempo`
    public static let tempo = Self(rawValue: "tempo")
    /// `kAFInfoDictionary_KeySignature`
    public static let keySignature = Self(rawValue: "key signature")
    /// `kAFInfoDictionary_TimeSignature`
    public static let timeSignature = Self(rawValue: "time signature")
    /// `kAFInfoDictionary_TrackNumber`
    public static let trackNumber = Self(rawValue: "track number")
    /// `kAFInfoDictionary_Year`
    public static let year = Self(rawValue: "year")
    /// `kAFInfoDictionary_RecordedDate`
    public static let recordedDate = Self(rawValue: "recorded date")
    /// `kAFInfoDictionary_Composer`
    public static let composer = Self(rawValue: "composer")
    /// `kAFInfoDictionary_Lyricist`
    public static let lyricist = Self(rawValue: "lyricist")
    /// `kAFInfoDictionary_Genre`
    public static let genre = Self(rawValue: "genre")
    /// `kAFInfoDictionary_Comments`
    public static let comments = Self(rawValue: "comments")
    /// `kAFInfoDictionary_Copyright`
    public static let copyright = Self(rawValue: "copyright")
    /// `kAFInfoDictionary_ISRC`
    public static let isrc = Self(rawValue: "ISRC")
    /// `kAFInfoDictionary_SourceEncoder`
    public static let sourceEncoder = Self(rawValue: "source encoder")
    /// `kAFInfoDictionary_EncodingApplication`
    public static let encodingApplication = Self(rawValue: "encoding application")
    /// `kAFInfoDictionary_NominalBitRate`
    public static let nominalBitRate = Self(rawValue: "nominal bit rate")
    /// `kAFInfoDictionary_ChannelLayout`
    public static let channelLayout = Self(rawValue: "channel layout")
    /// `kAFInfoDictionary_ApproximateDurationInSeconds`
    public static let approximateDurationInSeconds = Self(rawValue: "approximate duration in seconds")
    /// `kAFInfoDictionary_SourceBitDepth`
    public static let sourceBitDepth = Self(rawValue: "source bit depth")

    /// Every key Apple defines, in the order of Apple's header.
    public static let all: [InfoKey] = [
        artist, album, title, subTitle, tempo, keySignature, timeSignature, trackNumber, year, recordedDate,
        composer, lyricist, genre, comments, copyright, isrc, sourceEncoder, encodingApplication,
        nominalBitRate, channelLayout, approximateDurationInSeconds, sourceBitDepth,
    ]

    /// The key string, e.g. `track number`.
    public var description: String { rawValue }
}
