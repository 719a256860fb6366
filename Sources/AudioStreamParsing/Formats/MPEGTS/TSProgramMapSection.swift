/// A program map table's section (ISO/IEC 13818-1 §2.4.4.8, Table 2-33): the elementary streams of one
/// program, each with its stream_type, PID and descriptors.
///
/// ```
///  table_id 8 (0x02) | section_syntax_indicator 1 | '0' 1 | reserved 2 | section_length 12
///  program_number 16 | reserved 2 | version_number 5 | current_next_indicator 1
///  section_number 8 | last_section_number 8
///  reserved 3 | PCR_PID 13 | reserved 4 | program_info_length 12 | descriptors
///  N × { stream_type 8 | reserved 3 | elementary_PID 13 | reserved 4 | ES_info_length 12 | descriptors }
///  CRC_32 32
/// ```
///
/// Descriptors read (tag 8, length 8, body): registration_descriptor 0x05 (format_identifier, §2.6.8),
/// metadata_descriptor 0x26 (metadata_format_identifier when metadata_format is 0xFF, §2.6.60, after
/// the application format's identifier when that is 0xFFFF),
/// ISO_639_language_descriptor 0x0A (§2.6.18), the DVB AC-3 (0x6A) and enhanced AC-3 (0x7A)
/// descriptors (ETSI EN 300 468 Annex D) and the ATSC AC-3 descriptor (0x81, A/52 Annex A).
struct TSProgramMapSection: Hashable, Sendable {
    /// One elementary stream of the program.
    struct Stream: Hashable, Sendable {
        var streamType: UInt8
        var pid: UInt16
        /// The format_identifier of a registration or metadata descriptor (`AC-3`, `EAC3`, `ID3 `).
        var formatIdentifier: UInt32?
        /// The tags of the descriptors present.
        var descriptorTags: [UInt8]
        /// The ISO 639 language code, if a descriptor gives one.
        var language: String?
    }

    var programNumber: UInt16
    var version: UInt8
    var streams: [Stream]

    static let structure = Structure("mpegts", "PMT")

    /// Decodes a whole section (its CRC already checked); `nil` when it is not a current PMT section
    /// or its lengths overrun it.
    static func decode(_ section: [UInt8]) -> TSProgramMapSection? {
        guard section.count >= 16, section[0] == 0x02, section[5] & 1 == 1 else { return nil }
        let end = section.count - 4
        let programInfo = Int(section[10] & 0x0F) << 8 | Int(section[11])
        var i = 12 + programInfo
        guard i <= end else { return nil }
        var streams: [Stream] = []
        while i + 5 <= end {
            let info = Int(section[i + 3] & 0x0F) << 8 | Int(section[i + 4])
            guard i + 5 + info <= end else { return nil }
            var stream = Stream(
                streamType: section[i], pid: UInt16(section[i + 1] & 0x1F) << 8 | UInt16(section[i + 2]),
                formatIdentifier: nil, descriptorTags: [], language: nil)
            readDescriptors(section[(i + 5)..<(i + 5 + info)], into: &stream)
            streams.append(stream)
            i += 5 + info
        }
        return TSProgramMapSection(
            programNumber: UInt16(section[3]) << 8 | UInt16(section[4]), version: section[5] >> 1 & 0x1F,
            streams: streams)
    }

    private static func readDescriptors(_ bytes: ArraySlice<UInt8>, into stream: inout Stream) {
        var i = bytes.startIndex
        while i + 2 <= bytes.endIndex {
            let tag = bytes[i]
            let length = Int(bytes[i + 1])
            let body = bytes[(i + 2)..<min(bytes.endIndex, i + 2 + length)]
            stream.descriptorTags.append(tag)
            switch tag {
            case 0x05 where body.count >= 4:
                stream.formatIdentifier = fourCC(body, at: body.startIndex)
            case 0x26 where body.count >= 7:
                // metadata_application_format 0xFFFF is followed by its 4-byte identifier.
                let format = body.startIndex + (body.first == 0xFF && body[body.startIndex + 1] == 0xFF ? 6 : 2)
                if format + 5 <= body.endIndex, body[format] == 0xFF {
                    stream.formatIdentifier = fourCC(body, at: format + 1)
                }
            case 0x0A where body.count >= 3:
                stream.language = String(decoding: body.prefix(3), as: UTF8.self)
            default:
                break
            }
            i += 2 + length
        }
    }

    private static func fourCC(_ bytes: ArraySlice<UInt8>, at i: Int) -> UInt32 {
        bytes[i..<(i + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
