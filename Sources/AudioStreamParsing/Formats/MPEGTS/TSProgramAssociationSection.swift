/// The program association table's section (ISO/IEC 13818-1 §2.4.4.3, Table 2-30), on PID 0: which
/// PID carries each program's map.
///
/// ```
///  table_id 8 (0x00) | section_syntax_indicator 1 | '0' 1 | reserved 2 | section_length 12
///  transport_stream_id 16 | reserved 2 | version_number 5 | current_next_indicator 1
///  section_number 8 | last_section_number 8
///  N × { program_number 16 | reserved 3 | PID 13 }   (program_number 0: the network PID)
///  CRC_32 32
/// ```
struct TSProgramAssociationSection: Hashable, Sendable {
    /// A program: its program_number and the PID of its map.
    struct Program: Hashable, Sendable {
        var number: UInt16
        var pmtPID: UInt16
    }

    var version: UInt8
    /// Every program (the network PID left out).
    var programs: [Program]

    static let structure = Structure("mpegts", "PAT")

    /// Decodes a whole section (its CRC already checked); `nil` when it is not a current PAT section.
    static func decode(_ section: [UInt8]) -> TSProgramAssociationSection? {
        guard section.count >= 12, section[0] == 0x00, section[5] & 1 == 1 else { return nil }
        var programs: [Program] = []
        var i = 8
        while i + 4 <= section.count - 4 {
            let number = UInt16(section[i]) << 8 | UInt16(section[i + 1])
            let pid = UInt16(section[i + 2] & 0x1F) << 8 | UInt16(section[i + 3])
            if number != 0 { programs.append(Program(number: number, pmtPID: pid)) }
            i += 4
        }
        return TSProgramAssociationSection(version: section[5] >> 1 & 0x1F, programs: programs)
    }
}
