internal import COpenSSL

/// The owner of one OpenSSL cipher context (`EVP_CIPHER_CTX`), keyed once when created: no
/// allocation per packet. In GCM it is re-initialised with each packet's IV; counter mode runs
/// on an ECB context that is never re-initialised (see ``applyKeystream(iv:to:count:)``).
///
/// `EVP_CIPHER_CTX_free` wipes the key schedule, exactly once, in `deinit`.
struct AESCipher: ~Copyable {
    /// The AES mode of an SRTP suite.
    enum Mode {
        /// AES in counter mode (RFC 3711 §4.1.1): a 16-octet IV, encryption and decryption alike.
        case counter
        /// AES in Galois/counter mode (RFC 7714): a 12-octet IV and a 16-octet tag.
        case galoisCounter
    }

    /// The GCM tag length of every AEAD suite (RFC 7714 §12).
    static let galoisCounterTagLength = 16

    private let context: OpaquePointer
    private let encrypts: Bool

    /// A context for `mode` with a 16- or 32-octet `key`; `encrypts` is ignored in counter mode
    /// (the keystream is the same both ways).
    init(mode: Mode, key: UnsafeRawBufferPointer, encrypts: Bool = true) throws(SRTPError) {
        guard let context = EVP_CIPHER_CTX_new() else { throw .cryptoLibraryFailure("EVP_CIPHER_CTX_new") }
        let cipher: OpaquePointer? =
            switch (mode, key.count) {
            case (.counter, 16): EVP_aes_128_ecb()
            case (.counter, _): EVP_aes_256_ecb()
            case (.galoisCounter, 16): EVP_aes_128_gcm()
            case (.galoisCounter, _): EVP_aes_256_gcm()
            }
        let keyBytes = key.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let initialised =
            mode == .galoisCounter && !encrypts
            ? EVP_DecryptInit_ex(context, cipher, nil, keyBytes, nil)
            : EVP_EncryptInit_ex(context, cipher, nil, keyBytes, nil)
        guard initialised == 1, mode == .galoisCounter || EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw .cryptoLibraryFailure("EVP_CipherInit_ex")
        }
        self.context = context
        self.encrypts = mode == .counter || encrypts
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
    }

    /// The bytes of the OpenSSL context's own block a packet's transform reads (its layout is
    /// OpenSSL's: the cipher, the IV, the key length and the provider's context lie in its
    /// first three cache lines).
    private static let contextBytesRead = 192

    /// Reports the context's block to `visit` (for warming it ahead of a packet).
    func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        visit(UnsafeRawPointer(context), Self.contextBytesRead)
    }

    /// The keystream made at a time by ``applyKeystream(iv:to:count:)``, on the stack: 16 blocks.
    private static let keystreamBytes = 256

    /// XORs `count` octets at `data` with the counter-mode keystream that starts at the
    /// 16-octet `iv`, in place: the counter blocks (`iv` + 0, 1, 2 … as a 128-bit big-endian
    /// number, as a counter-mode context counts) are encrypted on the ECB context, up to
    /// ``keystreamBytes`` at a time, and XORed in. A counter-mode context would have to be
    /// re-initialised with each packet's IV, and OpenSSL 3.0 then looks its IV length up by
    /// name (`OSSL_PARAM_locate`, string compares) at every packet.
    func applyKeystream(iv: UnsafeRawPointer, to data: UnsafeMutableRawPointer, count: Int) -> Bool {
        var counter = (high: UInt64(bigEndian: iv.loadUnaligned(as: UInt64.self)), low: UInt64(bigEndian: iv.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        return withUnsafeTemporaryAllocation(byteCount: Self.keystreamBytes, alignment: 16) { keystream in
            let stream = keystream.baseAddress!
            defer { wipe(keystream) }
            var done = 0
            while done < count {
                let chunk = min(count - done, Self.keystreamBytes)
                let blockBytes = (chunk + 15) & ~15
                for offset in stride(from: 0, to: blockBytes, by: 16) {
                    stream.storeBytes(of: counter.high.bigEndian, toByteOffset: offset, as: UInt64.self)
                    stream.storeBytes(of: counter.low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
                    let (low, carry) = counter.low.addingReportingOverflow(1)
                    counter = (carry ? counter.high &+ 1 : counter.high, low)
                }
                guard update(stream, count: blockBytes) else { return false }
                Self.xor(data + done, with: UnsafeRawPointer(stream), count: chunk)
                done += chunk
            }
            return true
        }
    }

    /// `data[0..<count] ^= keystream[0..<count]`, eight octets at a time.
    private static func xor(_ data: UnsafeMutableRawPointer, with keystream: UnsafeRawPointer, count: Int) {
        var offset = 0
        while offset + 8 <= count {
            let word = data.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ keystream.load(fromByteOffset: offset, as: UInt64.self)
            data.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            data.storeBytes(
                of: data.load(fromByteOffset: offset, as: UInt8.self) ^ keystream.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset,
                as: UInt8.self)
            offset += 1
        }
    }

    /// Encrypts `count` octets at `data` in place under the 12-octet `iv`, authenticating
    /// `aad` then `trailingAAD` first, and writes the 16-octet tag to `tag`.
    func seal(
        iv: UnsafeRawPointer, aad: UnsafeRawBufferPointer, trailingAAD: UnsafeRawBufferPointer,
        _ data: UnsafeMutableRawPointer, count: Int, tag: UnsafeMutableRawPointer
    ) -> Bool {
        guard EVP_EncryptInit_ex(context, nil, nil, nil, iv.assumingMemoryBound(to: UInt8.self)) == 1,
            authenticate(aad), authenticate(trailingAAD), update(data, count: count)
        else { return false }
        var finalLength: Int32 = 0
        return EVP_EncryptFinal_ex(context, tag.assumingMemoryBound(to: UInt8.self), &finalLength) == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(Self.galoisCounterTagLength), tag) == 1
    }

    /// Decrypts `count` octets at `data` in place under the 12-octet `iv`, and reports whether
    /// they, `aad` and `trailingAAD` match the 16-octet `tag`.
    func open(
        iv: UnsafeRawPointer, aad: UnsafeRawBufferPointer, trailingAAD: UnsafeRawBufferPointer,
        _ data: UnsafeMutableRawPointer, count: Int, tag: UnsafeMutableRawPointer
    ) -> Bool {
        guard !encrypts, EVP_DecryptInit_ex(context, nil, nil, nil, iv.assumingMemoryBound(to: UInt8.self)) == 1,
            authenticate(aad), authenticate(trailingAAD), update(data, count: count),
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(Self.galoisCounterTagLength), tag) == 1
        else { return false }
        var finalLength: Int32 = 0
        return EVP_DecryptFinal_ex(context, tag.assumingMemoryBound(to: UInt8.self), &finalLength) == 1
    }

    /// Feeds additional authenticated data (GCM).
    private func authenticate(_ aad: UnsafeRawBufferPointer) -> Bool {
        guard let start = aad.baseAddress, !aad.isEmpty else { return true }
        var length: Int32 = 0
        return EVP_CipherUpdate(context, nil, &length, start.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1
    }

    private func update(_ data: UnsafeMutableRawPointer, count: Int) -> Bool {
        guard count > 0 else { return true }
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        var length: Int32 = 0
        return EVP_CipherUpdate(context, bytes, &length, bytes, Int32(count)) == 1
    }
}
