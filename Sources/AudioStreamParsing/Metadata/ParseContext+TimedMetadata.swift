extension ParseContext {
    /// Announces the metadata of tags found between frames of a framed stream (an ID3v2 tag between
    /// ADTS frames as HLS timed metadata, the leading ID3v2 tag of the next file in concatenated
    /// MP3s) as the stream's metadata from the next packet on.
    ///
    /// The tag starts a new part of the stream, so its metadata replaces, rather than follows, the
    /// metadata of the tags that started the stream: it becomes `leadingMetadata` (which every later
    /// `.metadata` announcement, such as trailing ID3v1/APEv2 tags at `finish`, is merged after), and
    /// the listener hears it once, between the packets before and after the tag (events are
    /// delivered in the order they are emitted).
    mutating func announceTimedMetadata(_ metadata: AudioMetadata) {
        leadingMetadata = metadata
        announce(.metadata(AudioMetadata()))
    }
}
