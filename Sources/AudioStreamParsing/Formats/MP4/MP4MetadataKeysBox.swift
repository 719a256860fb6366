/// QuickTime's metadata item keys box `keys` (Apple QuickTime File Format, "Metadata": Metadata Item
/// Keys Atom): with handler `mdta`, the items of `ilst` are named by 1-based index into this table.
///
/// ```
/// offset  size  field
///      0     1  version (0)
///      1     3  flags
///      4     4  entry_count
///      8        entry_count × {
///              4  key_size        the whole entry, these 8 bytes included
///              4  key_namespace   'mdta'
///              …  key_value       UTF-8 ("com.apple.quicktime.title") }
/// ```
struct MP4MetadataKeysBox: Equatable {
    /// The key names, in table order (index 0 is key 1).
    var keys: [String]
    /// A table cut short (the keys before the cut are kept).
    var notes: [DiagnosticNote]

    /// Decodes a `keys` body. Never fails: a body without a count gives no keys; an entry that does not
    /// fit ends the table with a `damagedMetadata` note.
    static func decode(_ body: ArraySlice<UInt8>) -> MP4MetadataKeysBox {
        var box = MP4MetadataKeysBox(keys: [], notes: [])
        var r = ByteReader(body)
        guard r.skip(4), let count = r.readInteger(as: UInt32.self, endianness: .big) else { return box }
        for _ in 0..<count {
            guard let size = r.readInteger(as: UInt32.self, endianness: .big), size >= 8, r.readFourCC() != nil,
                let name = r.readBytes(Int(size) - 8)
            else {
                box.notes.append(DiagnosticNote(.damagedMetadata, .mp4("keys"), "key table cut short"))
                return box
            }
            box.keys.append(String(decoding: name, as: UTF8.self))
        }
        return box
    }
}
