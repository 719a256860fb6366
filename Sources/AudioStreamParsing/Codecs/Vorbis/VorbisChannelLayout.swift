/// The channel layout of a Vorbis stream from its channel count (Vorbis I §4.3.9 "output channel
/// order"; Opus channel mapping family 1, RFC 7845 §5.1.1.2, uses the same order).
///
/// | channels | Vorbis order | CoreAudio tag |
/// | --- | --- | --- |
/// | 1 | mono | `kAudioChannelLayoutTag_Mono` (100 << 16 \| 1) |
/// | 2 | L R | `kAudioChannelLayoutTag_Stereo` (101 << 16 \| 2) |
/// | 3 | L C R | `kAudioChannelLayoutTag_Ogg_3_0` = `AC3_3_0` (150 << 16 \| 3) |
/// | 4 | FL FR RL RR | `kAudioChannelLayoutTag_Ogg_4_0` = `WAVE_4_0_B` (185 << 16 \| 4) |
/// | 5 | FL C FR RL RR | `kAudioChannelLayoutTag_Ogg_5_0` (212 << 16 \| 5) |
/// | 6 | FL C FR RL RR LFE | `kAudioChannelLayoutTag_Ogg_5_1` (213 << 16 \| 6) |
/// | 7 | FL C FR SL SR RC LFE | `kAudioChannelLayoutTag_Ogg_6_1` (214 << 16 \| 7) |
/// | 8 | FL C FR SL SR RL RR LFE | `kAudioChannelLayoutTag_Ogg_7_1` (215 << 16 \| 8) |
/// | 9…255 | application-defined | none (`nil`) |
enum VorbisChannelLayout {
    /// The CoreAudio layout tags for 1…8 channels (index = channels − 1).
    static let tags: [ChannelLayout.Tag] = [
        .mono, .stereo, .ogg_3_0, .ogg_4_0, .ogg_5_0, .ogg_5_1, .ogg_6_1, .ogg_7_1,
    ]

    /// The layout for `channels` channels in Vorbis order; `nil` for 0 or more than 8.
    static func layout(channels: Int) -> ChannelLayout? {
        guard (1...8).contains(channels) else { return nil }
        return ChannelLayout(tag: tags[channels - 1])
    }
}
