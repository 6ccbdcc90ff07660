#if canImport(Glibc)
    internal import Glibc
#endif

/// The secret of one SRTP crypto context: the master key followed by the master salt, for one
/// ``SRTPCryptoSuite``.
///
/// The octets live in one heap buffer shared by all copies of the value and wiped with
/// `explicit_bzero` when the last copy goes away. They never appear in `description`,
/// `debugDescription` or a `Mirror` (so not in `print`, `dump` or string interpolation); the only
/// ways to read them are ``withUnsafeBytes(_:)`` and an SDES line (``SDESCryptoAttribute/attributeLine``).
public struct SRTPMasterKey: Sendable, Equatable {
    /// The suite the key is for; it fixes the lengths of key and salt.
    public let suite: SRTPCryptoSuite
    private let storage: SecretBytes

    /// Takes the master key and master salt concatenated, as SDES `inline:` carries them.
    ///
    /// - Throws: ``SRTPError/invalidKeyLength(suite:expected:actual:)`` when `keyAndSalt` is not
    ///   ``SRTPCryptoSuite/keyMaterialLength`` octets long.
    public init(suite: SRTPCryptoSuite, keyAndSalt: some Collection<UInt8>) throws(SRTPError) {
        guard keyAndSalt.count == suite.keyMaterialLength else {
            throw .invalidKeyLength(suite: suite, expected: suite.keyMaterialLength, actual: keyAndSalt.count)
        }
        self.suite = suite
        storage = SecretBytes(copying: keyAndSalt)
    }

    /// Takes the master key and the master salt separately.
    ///
    /// - Throws: ``SRTPError/invalidKeyLength(suite:expected:actual:)`` when either has the wrong
    ///   length for `suite` (the lengths reported are those of key and salt together).
    public init(suite: SRTPCryptoSuite, key: some Collection<UInt8>, salt: some Collection<UInt8>) throws(SRTPError) {
        guard key.count == suite.masterKeyLength, salt.count == suite.masterSaltLength else {
            throw .invalidKeyLength(suite: suite, expected: suite.keyMaterialLength, actual: key.count + salt.count)
        }
        self.suite = suite
        storage = SecretBytes(copying: key, salt)
    }

    /// A fresh key and salt from the system's cryptographically secure generator.
    public static func random(for suite: SRTPCryptoSuite) -> SRTPMasterKey {
        SRTPMasterKey(suite: suite, storage: SecretBytes(randomCount: suite.keyMaterialLength))
    }

    private init(suite: SRTPCryptoSuite, storage: SecretBytes) {
        self.suite = suite
        self.storage = storage
    }

    /// Lends the master key followed by the master salt to `body`. The pointer must not escape.
    public func withUnsafeBytes<Result: ~Copyable, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(storage.bytes))
    }

    /// Whether two keys are for the same suite and hold the same octets, compared in constant time.
    public static func == (lhs: SRTPMasterKey, rhs: SRTPMasterKey) -> Bool {
        guard lhs.suite == rhs.suite else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.storage.bytes.count {
            difference |= lhs.storage.bytes[index] ^ rhs.storage.bytes[index]
        }
        return difference == 0
    }
}

extension SRTPMasterKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The suite and the length only; the octets are redacted.
    public var description: String {
        "SRTPMasterKey(\(suite.sdesName), \(suite.keyMaterialLength) octets, redacted)"
    }

    /// The same redacted text as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the suite only, so `dump` cannot reveal the octets.
    public var customMirror: Mirror {
        Mirror(self, children: ["suite": suite, "octets": "redacted"], displayStyle: .struct)
    }
}

/// Secret octets in one heap buffer, wiped before it is freed.
///
/// `@unchecked Sendable`: the buffer is written only while the object is initialised and only
/// read afterwards, so sharing it between threads is safe.
private final class SecretBytes: @unchecked Sendable {
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init(copying parts: any Collection<UInt8>...) {
        let count = parts.reduce(0) { $0 + $1.count }
        bytes = .allocate(capacity: count)
        var next = bytes.startIndex
        for part in parts {
            for byte in part {
                bytes.initializeElement(at: next, to: byte)
                next += 1
            }
        }
    }

    init(randomCount count: Int) {
        bytes = .allocate(capacity: count)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices {
            bytes.initializeElement(at: index, to: generator.next())
        }
    }

    deinit {
        wipe(UnsafeMutableRawBufferPointer(bytes))
        bytes.deallocate()
    }
}

/// Overwrites `bytes` with zeros in a way the optimiser cannot drop (`explicit_bzero`).
func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
    if let start = bytes.baseAddress {
        explicit_bzero(start, bytes.count)
    }
}
