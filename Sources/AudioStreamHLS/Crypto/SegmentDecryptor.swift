import Crypto
import _CryptoExtras

/// `METHOD=AES-128` (RFC 8216 section 4.3.2.4 and 5.2): a whole segment encrypted with AES-128 in CBC mode
/// with PKCS7 padding, under a 16-byte key fetched from the key `URI`, with the tag's `IV` or, without one,
/// the segment's Media Sequence Number as a 128-bit big-endian integer.
///
/// The cipher is swift-crypto's (`_CryptoExtras` `AES._CBC`, BoringSSL underneath): docs/hls.md, "AES-128",
/// says why it is not written here.
enum SegmentDecryptor {
    /// The IV for a segment: the tag's, or the sequence number (section 5.2).
    static func iv(for key: HLSKey, sequenceNumber: Int64) -> [UInt8] {
        if let iv = key.iv { return iv }
        var bytes = [UInt8](repeating: 0, count: 16)
        let value = UInt64(bitPattern: sequenceNumber)
        for i in 0..<8 { bytes[15 - i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
        return bytes
    }

    /// Decrypts `ciphertext` (its length must be a positive multiple of 16, the padding valid).
    static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8], segment: Int64) throws(HLSError) -> [UInt8] {
        guard key.count == 16 else {
            throw .decryptionFailed(segment: segment, reason: "the key is \(key.count) bytes, not 16")
        }
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            throw .decryptionFailed(
                segment: segment, reason: "\(ciphertext.count) bytes is not a positive multiple of the 16-byte block")
        }
        do {
            let plain = try AES._CBC.decrypt(
                ciphertext, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv))
            return [UInt8](plain)
        } catch {
            throw .decryptionFailed(segment: segment, reason: "wrong key or IV (the padding does not check)")
        }
    }
}
