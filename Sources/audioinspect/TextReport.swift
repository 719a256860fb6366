import AudioInspectCommon
import AudioStreamParsing

/// The human-readable summary printed by `audioinspect FILE`.
extension InspectionReport {
    /// Writes the summary: one labelled line per fact, continuation lines indented under the value.
    ///
    /// - Parameters:
    ///   - output: where to write.
    ///   - includePackets: also write the packet table (`--packets`).
    /// One track of a multi-track container: `#ID handler entry, timescale, duration, samples, language`, and
    /// whether it is the parsed track or its chapter track.
    static func trackLine(_ t: TrackInfo) -> String {
        var text =
            "#\(t.id) \(t.handlerType) \(t.sampleEntryType ?? "-"), timescale \(t.timescale), "
            + "duration \(t.duration), \(t.sampleCount) samples"
        if let language = t.language { text += ", \(language)" }
        if t.isSelected { text += " (parsed)" }
        if t.isChapterTrack { text += " (chapters)" }
        return text
    }

    /// One link of a chained stream: `#N at OFFSET, packet INDEX: format, duration, tags`.
    static func linkLine(_ index: Int, _ link: StreamLink) -> String {
        var text = "#\(index + 1) at \(link.offset), packet \(link.firstPacketIndex): "
        text += formatSummary(link.streamDescription)
        text += link.duration.map { ", " + fixed3($0) + " s" } ?? ", duration unknown"
        let tags = link.metadata?.tags ?? []
        text += tags.isEmpty ? ", no tags" : ", " + tags.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        return text
    }

    func writeText(to output: inout some TextOutputStream, includePackets: Bool) {
        var lines: [(String, [String])] = []
        func add(_ label: String, _ values: [String]) { lines.append((label, values.isEmpty ? ["none"] : values)) }
        func add(_ label: String, _ value: String) { lines.append((label, [value])) }

        add("Source", source == "-" ? "standard input" : source)
        add("File type", fileType.map { "\($0) (\(Self.fileTypeName($0)))" } ?? "unknown")
        if !tracks.isEmpty {
            add("Tracks", tracks.map(Self.trackLine))
        }
        if !links.isEmpty {
            add("Links", links.enumerated().map { Self.linkLine($0.offset, $0.element) })
        }
        if let f = dataFormat {
            add("Data format", [Self.formatSummary(f), Self.formatFields(f)])
        } else {
            add("Data format", "unknown")
        }
        if let list = formatList, list.count > 1 {
            add(
                "Format list",
                list.map {
                    Self.formatSummary($0.streamDescription) + ", " + Self.layoutTagText($0.channelLayoutTag)
                })
        }
        if let d = duration {
            var text = d.seconds.map { Self.fixed3($0) + " s, " } ?? ""
            text += "\(d.frames) frames"
            switch (d.isEstimated, d.source) {
            case (true, .bitRate): text += " (estimated from the bit rate)"
            case (true, _): text += " (estimated: the input was not parsed to its end)"
            case (false, .links): text += " (the sum of \(links.count) links; frames at their own rates)"
            case (false, _): break
            }
            add("Duration", text)
        } else {
            add("Duration", "unknown")
        }
        add("Bit rate", bitRate.map { "\($0) bit/s" } ?? "unknown")
        add("Data offset", dataOffset.map { String($0) } ?? "unknown")
        if audioDataByteCount == nil && audioDataPacketCount == nil {
            add("Audio data", "unknown")
        } else {
            add("Audio data", "\(Self.text(audioDataByteCount)) bytes, \(Self.text(audioDataPacketCount)) packets")
        }
        add("Parsed", "\(parsedPackets) packets, \(parsedBytes) bytes, \(parsedFrames) frames")
        let average = averageBytesPerPacket.map { Self.number($0) } ?? "unknown"
        add(
            "Packet size",
            "max \(Self.text(maximumPacketSize)), upper bound \(Self.text(packetSizeUpperBound)), average \(average)")
        if let p = packetTableInfo {
            add(
                "Gapless",
                "\(p.numberValidFrames) valid frames, \(p.primingFrames) priming, \(p.remainderFrames) remainder")
        } else {
            add("Gapless", "none")
        }
        if let c = channelLayout {
            var text = c.tag.name
            if c.tag == .useChannelBitmap { text += ", bitmap \(Self.hex32(c.bitmap))" }
            text += ", \(c.numberOfChannels) channels"
            if !c.channelLabels.isEmpty {
                text += ", labels \(c.channelLabels.map(String.init).joined(separator: " "))"
            }
            add("Channel layout", text)
        } else {
            add("Channel layout", "none")
        }
        if let cookie = magicCookie {
            let shown = Self.hex(Array(cookie.prefix(32))) + (cookie.count > 32 ? "…" : "")
            add("Magic cookie", "\(cookie.count) bytes: \(shown)")
        } else {
            add("Magic cookie", "none")
        }
        let m = metadata ?? AudioMetadata()
        let info = m.info.map { (key: $0.key.rawValue, value: $0.value) }.sorted { Self.byteOrder($0.key, $1.key) }
        add("Info", info.map { "\($0.key): \($0.value)" })
        add("Tags", m.tags.map { "[\($0.source)] \($0.key) = \($0.value)" })
        add("Artwork", m.artwork.map { "\($0.mimeType), picture type \($0.pictureType), \($0.data.count) bytes" })
        add(
            "Chapters",
            m.chapters.map { c in
                "\(Self.fixed3(c.startSeconds)) – \(c.endSeconds.map(Self.fixed3) ?? "?") s: \(c.title)"
            })
        var notes = diagnostics.map { "at \($0.byteOffset): \($0.message)" }
        if diagnosticCount > diagnostics.count { notes.append("… and \(diagnosticCount - diagnostics.count) more") }
        add("Diagnostics", notes)
        if let failure {
            add("Error", "\(failure.code)\(failure.offset.map { " at offset \($0)" } ?? ""): \(failure.message)")
        }

        let width = 16
        for (label, values) in lines {
            for (i, value) in values.enumerated() {
                let head = i == 0 ? label : ""
                // Every value goes through the one terminal sanitizer (tags, titles, paths and reasons come
                // from the input).
                output.write(
                    head + String(repeating: " ", count: max(1, width - head.count)) + TerminalText.sanitized(value)
                        + "\n")
            }
        }
        if includePackets, let runs = packets {
            output.write("\nPackets\n")
            output.write(
                Self.pad("index", 10) + Self.pad("offset", 14) + Self.pad("size", 10) + Self.pad("frames", 10) + "\n")
            var index: Int64 = 0
            for r in runs {
                for k in 0..<r.count {
                    output.write(
                        Self.pad(String(index), 10) + Self.pad(String(r.offset + k * r.size), 14)
                            + Self.pad(String(r.size), 10) + Self.pad(String(r.frames), 10) + "\n")
                    index += 1
                }
            }
        }
    }

    /// `µ-law (ulaw), 8000 Hz, 1 channel, 8 bits`.
    static func formatSummary(_ f: StreamDescription) -> String {
        var parts = ["\(formatName(f)) (\(f.formatID))", "\(number(f.sampleRate)) Hz"]
        parts.append(f.channelsPerFrame == 1 ? "1 channel" : "\(f.channelsPerFrame) channels")
        if f.bitsPerChannel > 0 { parts.append("\(f.bitsPerChannel) bits") }
        return parts.joined(separator: ", ")
    }

    /// `bytes/packet 1, frames/packet 1, bytes/frame 1, flags 0x0000000C`.
    static func formatFields(_ f: StreamDescription) -> String {
        "bytes/packet \(f.bytesPerPacket), frames/packet \(f.framesPerPacket), bytes/frame \(f.bytesPerFrame), "
            + "flags \(hex32(f.formatFlags))"
    }

    /// A readable codec name; linear PCM says its sample type and byte order.
    static func formatName(_ f: StreamDescription) -> String {
        if f.formatID == .linearPCM {
            let isFloat = f.formatFlags & LinearPCMFlags.isFloat != 0
            let kind =
                isFloat
                ? "float" : f.formatFlags & LinearPCMFlags.isSignedInteger != 0 ? "signed integer" : "unsigned integer"
            let order =
                f.bitsPerChannel <= 8
                ? "" : f.formatFlags & LinearPCMFlags.isBigEndian != 0 ? ", big-endian" : ", little-endian"
            return "Linear PCM, \(kind)\(order)"
        }
        let names: [AudioFormat: String] = [
            .uLaw: "µ-law", .aLaw: "A-law", .mpeg4AAC: "AAC", .mpeg4AAC_HE: "HE-AAC", .mpeg4AAC_HE_V2: "HE-AAC v2",
            .mpegLayer1: "MPEG Layer I", .mpegLayer2: "MPEG Layer II", .mpegLayer3: "MPEG Layer III",
            .appleLossless: "Apple Lossless", .flac: "FLAC", .opus: "Opus", .vorbis: "Vorbis",
            .appleIMA4: "IMA 4:1 ADPCM",
            .dviIntelIMA: "IMA ADPCM (DVI)", .microsoftADPCM: "Microsoft ADPCM", .microsoftGSM: "GSM 6.10",
            .ac3: "AC-3", .enhancedAC3: "E-AC-3", .amr: "AMR-NB", .amrWB: "AMR-WB",
        ]
        if let name = names[f.formatID] { return name }
        if let tag = f.formatID.microsoftACMTag {
            let acm: [UInt16: String] = [
                0x0014: "G.723 ADPCM", 0x0040: "G.721 ADPCM", 0x0045: "G.726 ADPCM", 0x0064: "G.726 ADPCM",
                0x028F: "G.722 ADPCM",
            ]
            let hex = String(tag, radix: 16, uppercase: true)
            return acm[tag] ?? "WAVE format 0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "format"
    }

    /// A readable container name.
    static func fileTypeName(_ t: AudioFileType) -> String {
        let names: [AudioFileType: String] = [
            .wave: "WAVE", .rf64: "RF64", .bw64: "BW64", .wave64: "Wave64", .aiff: "AIFF", .aifc: "AIFF-C",
            .caf: "Core Audio Format", .next: "NeXT/Sun audio", .mp3: "MPEG Layer III", .mp2: "MPEG Layer II",
            .mp1: "MPEG Layer I", .aacADTS: "AAC ADTS", .mpeg4: "MPEG-4", .m4a: "MPEG-4 audio",
            .m4b: "MPEG-4 audiobook",
            .threeGP: "3GPP", .threeGP2: "3GPP2", .flac: "FLAC", .ogg: "Ogg", .ac3: "AC-3", .amr: "AMR",
            .quickTime: "QuickTime", .matroska: "Matroska", .webM: "WebM", .enhancedAC3: "E-AC-3",
            .mpeg2TransportStream: "MPEG-2 transport stream", .latmInLOAS: "LATM in LOAS",
        ]
        return names[t] ?? "container"
    }

    /// `8000` for whole numbers, otherwise the shortest round-trip form.
    static func number(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return d.description
    }

    /// Three decimals without Foundation: `0.300`.
    static func fixed3(_ d: Double) -> String {
        guard d.isFinite, abs(d) < 9e15 else { return d.description }
        let millis = Int64((abs(d) * 1000).rounded())
        let fraction = String(millis % 1000)
        return (d < 0 && millis > 0 ? "-" : "") + "\(millis / 1000)."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The value, or `unknown`.
    static func text<T: BinaryInteger>(_ value: T?) -> String { value.map { String($0) } ?? "unknown" }

    /// A format list item's layout tag: `layout MPEG_5_1_D`, or `no layout` for 0.
    static func layoutTagText(_ tag: ChannelLayout.Tag) -> String {
        tag.rawValue == 0 ? "no layout" : "layout \(tag.name)"
    }

    /// `0x0000000C`.
    static func hex32(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - s.count)) + s
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - s.count)) + s
    }
}
