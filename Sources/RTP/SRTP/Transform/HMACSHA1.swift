internal import COpenSSL

/// HMAC-SHA1 (RFC 2104) under one key, with the SHA-1 states after the inner and outer padded
/// key computed once: a tag costs two state copies and the hashing of the message and the
/// inner digest, with no allocation (a kept `HMAC_CTX` or `EVP_MAC_CTX` in OpenSSL 3 duplicates
/// a provider context, on the heap, at every re-initialisation).
struct HMACSHA1: ~Copyable {
    /// The length of a SHA-1 digest, the longest tag.
    static let digestLength = 20
    private static let blockLength = 64

    /// The inner state, then the outer one, on the heap so that `deinit` can wipe them.
    private let states: UnsafeMutablePointer<SHA_CTX>

    /// Prepares the states for `key`, which is at most one SHA-1 block (SRTP's are 20 octets).
    init(key: UnsafeRawBufferPointer) {
        precondition(key.count <= Self.blockLength, "SRTP authentication keys are 20 octets")
        states = .allocate(capacity: 2)
        states.initialize(repeating: SHA_CTX(), count: 2)
        var padded = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &padded) { block in
            block.copyMemory(from: key)
            for index in block.indices { block[index] ^= 0x36 }
            SHA1_Init(states)
            SHA1_Update(states, block.baseAddress, block.count)
            for index in block.indices { block[index] ^= 0x36 ^ 0x5C }
            SHA1_Init(states + 1)
            SHA1_Update(states + 1, block.baseAddress, block.count)
            wipe(block)
        }
    }

    /// Reports the inner and outer states to `visit` (for warming them ahead of a packet).
    func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        visit(UnsafeRawPointer(states), 2 * MemoryLayout<SHA_CTX>.stride)
    }

    deinit {
        wipe(UnsafeMutableRawBufferPointer(start: states, count: 2 * MemoryLayout<SHA_CTX>.stride))
        states.deallocate()
    }

    /// Writes the first `tagLength` octets of HMAC-SHA1(`message` ‖ `suffix`) to `tag`.
    func authenticate(
        _ message: UnsafeRawBufferPointer, suffix: UnsafeRawBufferPointer, tagLength: Int,
        into tag: UnsafeMutableRawPointer
    ) {
        var digest = (UInt64(0), UInt64(0), UInt64(0))  // 24 octets, room for 20
        withUnsafeMutableBytes(of: &digest) { digest in
            let digestBytes = digest.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var state = states[0]
            SHA1_Update(&state, message.baseAddress, message.count)
            SHA1_Update(&state, suffix.baseAddress, suffix.count)
            SHA1_Final(digestBytes, &state)
            state = states[1]
            SHA1_Update(&state, digestBytes, Self.digestLength)
            SHA1_Final(digestBytes, &state)
            tag.copyMemory(from: digestBytes, byteCount: tagLength)
        }
    }

    /// Whether the `tagLength` octets at `tag` are the tag of `message` ‖ `suffix`, compared in
    /// constant time.
    func verify(
        _ message: UnsafeRawBufferPointer, suffix: UnsafeRawBufferPointer, tagLength: Int,
        tag: UnsafeRawPointer
    ) -> Bool {
        var expected = (UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &expected) { expected in
            authenticate(message, suffix: suffix, tagLength: tagLength, into: expected.baseAddress!)
            return CRYPTO_memcmp(expected.baseAddress, tag, tagLength) == 0
        }
    }
}
