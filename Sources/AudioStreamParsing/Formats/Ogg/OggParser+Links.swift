/// The links of a chained stream (RFC 3533 §4): one `StreamLink` per followed logical stream, opened at
/// its first audio packet (with its format and tags) and closed when the next group of
/// beginning-of-stream pages starts or the stream finishes (with its frames and trimming), so that every
/// link's values survive the announcements of the next (docs/formats/ogg.md, "Chained streams").
///
/// Links are recorded only while packet indices are exact: not after a seek or a discontinuity (a link
/// reached by an estimated seek would get an estimated first packet index).
extension OggParser {
    /// Records the link of `s`, whose first audio packet begins in the page at `offset`.
    mutating func openLink(
        _ s: OggLogicalStream, _ format: OggStreamFormat, at offset: Int64, _ context: inout ParseContext
    ) {
        guard !seeked, !indicesApproximate, links.count < limits.maxPacketTableEntries else { return }
        openLinkSerial = s.serialNumber
        links.append(
            StreamLink(
                offset: offset, firstPacketIndex: context.nextPacketIndex,
                streamDescription: format.streamDescription, metadata: format.metadata))
    }

    /// Completes the open link of `s` with its frames and trimming.
    mutating func closeLink(_ s: OggLogicalStream, trim: PacketTableInfo?) {
        guard let serial = openLinkSerial, serial == s.serialNumber, !links.isEmpty else { return }
        openLinkSerial = nil
        links[links.count - 1].frameCount = s.frames
        links[links.count - 1].packetTableInfo = trim
    }
}
