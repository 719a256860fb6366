/// The file type box `ftyp` (ISO/IEC 14496-12 §4.3): the brands the file conforms to.
///
/// ```
/// offset  size  field
///      0     4  major_brand        four-character code ('M4A ', 'isom', 'qt  ', '3gp4', …)
///      4     4  minor_version      UInt32
///      8   4·n  compatible_brands  four-character codes to the end of the box
/// ```
///
/// The probe chooses the file type from the major brand (`MP4Parser.fileType(majorBrand:)`); the
/// container only asks whether the file is QuickTime (`qt  `), which makes sound description versions
/// 1 and 2 and the `wave` box apply.
struct MP4FileTypeBox: Equatable {
    /// QuickTime's major brand.
    static let quickTimeBrand = FourCharCode.value("qt  ")

    var majorBrand: UInt32

    /// True for a QuickTime file.
    var isQuickTime: Bool { majorBrand == Self.quickTimeBrand }

    /// Decodes an `ftyp` body.
    ///
    /// - Throws: `invalidFile` when the body is shorter than the major brand.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4FileTypeBox {
        var r = ByteReader(body)
        guard let brand = r.readFourCC() else { throw Structure.mp4("ftyp").invalid("box too short") }
        return MP4FileTypeBox(majorBrand: brand)
    }
}
