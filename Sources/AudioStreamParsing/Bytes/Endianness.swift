/// The byte order of a multi-byte integer in the stream.
///
/// Every integer read names its byte order at the call site (`readInteger(as:endianness:)`): WAVE,
/// Wave64 and Ogg are little-endian; AIFF, CAF, NeXT, MP4, Matroska and the MPEG headers are
/// big-endian; RIFX is WAVE in big-endian order. There is deliberately no default.
enum Endianness: Sendable {
    /// Most significant byte first (network order).
    case big
    /// Least significant byte first.
    case little
}
