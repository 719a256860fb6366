/// Which stream of a Master Playlist to play (RFC 8216 section 6.3.1 leaves the choice to the client).
public enum HLSVariantChoice: Sendable, Equatable {
    /// An audio-only variant (no `RESOLUTION`, only audio codecs in `CODECS`), the one with the highest
    /// `BANDWIDTH` not above `maxBandwidth` (the lowest when none fits; the highest without a bound); without
    /// one, the `EXT-X-MEDIA TYPE=AUDIO` rendition (with a `URI`) of the chosen variant's `AUDIO` group
    /// (`DEFAULT=YES`, else `AUTOSELECT=YES`, else the first); without one, the variant with the lowest
    /// `BANDWIDTH` that lists an audio codec (its segments also carry video, which the parser skips).
    case automatic(maxBandwidth: Int? = nil)
    /// The variant at this index of ``HLSMasterPlaylist/variants``.
    case variant(index: Int)
    /// The `TYPE=AUDIO` rendition with this `NAME` (and `GROUP-ID`, when given).
    case rendition(name: String, groupID: String? = nil)
}

/// What ``HLSVariantChoice`` picked from a Master Playlist.
public struct HLSSelection: Sendable, Equatable {
    /// The Media Playlist's URI, as written in the master playlist.
    public var uri: String
    /// The variant picked (for a rendition: the variant whose `AUDIO` group holds it, if any).
    public var variant: HLSVariant?
    /// The audio rendition picked, when the audio comes from one.
    public var rendition: HLSRendition?

    /// A selection.
    public init(uri: String, variant: HLSVariant?, rendition: HLSRendition?) {
        self.uri = uri
        self.variant = variant
        self.rendition = rendition
    }
}

extension HLSMasterPlaylist {
    /// Applies `choice`; ``HLSError/noAudioVariant(url:reason:)`` when nothing fits.
    public func select(_ choice: HLSVariantChoice, url: String) throws(HLSError) -> HLSSelection {
        let audioRenditions = renditions.filter { $0.type == "AUDIO" && $0.uri != nil }
        switch choice {
        case .variant(let index):
            guard variants.indices.contains(index) else {
                throw .noAudioVariant(url: url, reason: "no variant \(index) (the playlist has \(variants.count))")
            }
            return HLSSelection(uri: variants[index].uri, variant: variants[index], rendition: nil)
        case .rendition(let name, let group):
            guard
                let rendition = audioRenditions.first(where: {
                    $0.name == name && (group == nil || $0.groupID == group)
                })
            else { throw .noAudioVariant(url: url, reason: "no AUDIO rendition named '\(name)'") }
            let variant = variants.first { $0.audioGroup == rendition.groupID }
            return HLSSelection(uri: rendition.uri ?? "", variant: variant, rendition: rendition)
        case .automatic(let maxBandwidth):
            let audioOnly = variants.filter(\.isAudioOnly)
            if let variant = Self.pick(audioOnly, maxBandwidth: maxBandwidth) {
                return HLSSelection(uri: variant.uri, variant: variant, rendition: nil)
            }
            let grouped = variants.filter { v in audioRenditions.contains { $0.groupID == v.audioGroup } }
            if let variant = Self.pick(grouped, maxBandwidth: maxBandwidth) {
                let group = audioRenditions.filter { $0.groupID == variant.audioGroup }
                let rendition = group.first(where: \.isDefault) ?? group.first(where: \.autoselect) ?? group[0]
                return HLSSelection(uri: rendition.uri ?? "", variant: variant, rendition: rendition)
            }
            let withAudio = variants.filter { $0.codecs.isEmpty || $0.codecs.contains(where: HLSCodecs.isAudio) }
            if let variant = withAudio.min(by: { $0.bandwidth < $1.bandwidth }) {
                return HLSSelection(uri: variant.uri, variant: variant, rendition: nil)
            }
            throw .noAudioVariant(url: url, reason: "no variant or AUDIO rendition carries audio")
        }
    }

    /// The highest bandwidth not above the bound, else the lowest.
    private static func pick(_ candidates: [HLSVariant], maxBandwidth: Int?) -> HLSVariant? {
        let fitting = candidates.filter { maxBandwidth == nil || $0.bandwidth <= maxBandwidth! }
        return fitting.max(by: { $0.bandwidth < $1.bandwidth }) ?? candidates.min(by: { $0.bandwidth < $1.bandwidth })
    }
}
