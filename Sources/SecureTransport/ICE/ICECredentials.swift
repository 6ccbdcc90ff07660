/// An ICE username fragment and password (RFC 8445 §5.3, RFC 8839 §5.4: `a=ice-ufrag`,
/// `a=ice-pwd`).
public struct ICECredentials: Hashable, Sendable {
    /// The username fragment (at least 4 ice-chars).
    public let usernameFragment: String
    /// The password (at least 22 ice-chars); its UTF-8 octets are the short-term key.
    public let password: String

    /// Credentials with the given fragment and password.
    public init(usernameFragment: String, password: String) {
        self.usernameFragment = usernameFragment
        self.password = password
    }

    /// Fresh random credentials: an 8-character fragment and a 24-character password drawn
    /// from ice-chars (letters, digits, `+`, `/`) with the system's secure generator.
    public static func random() -> ICECredentials {
        ICECredentials(usernameFragment: randomICEChars(8), password: randomICEChars(24))
    }

    /// The short-term key for MESSAGE-INTEGRITY.
    var key: [UInt8] { Array(password.utf8) }

    private static func randomICEChars(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }
}
