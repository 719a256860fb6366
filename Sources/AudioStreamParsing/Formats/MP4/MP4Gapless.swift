/// Gapless playback information: priming and remainder frames from an edit list or `iTunSMPB`.
enum MP4Gapless {
    /// The packet table info an edit list (`elst`, whole box) stands for.
    static func fromEditList(
        _ elst: ArraySlice<UInt8>, movieTimescale: UInt32, mediaTimescale: UInt32, sampleRate: Double,
        totalFrames: Int64
    ) -> PacketTableInfo? {
        nil
    }

    /// The packet table info of an iTunes `iTunSMPB` value.
    static func fromITunSMPB(_ value: String) -> PacketTableInfo? {
        nil
    }

    /// Which wins when both exist (documented in docs/formats/mp4.md).
    static func combine(editList: PacketTableInfo?, iTunSMPB: PacketTableInfo?) -> PacketTableInfo? {
        editList ?? iTunSMPB
    }
}
