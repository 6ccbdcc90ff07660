/// Fresh random identifiers: tags, Call-IDs, branches, cnonces.
enum SIPIdentifiers {
    /// `length` random lower-case letters and digits.
    static func token(_ length: Int = 16) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in alphabet.randomElement()! })
    }

    /// A branch with RFC 3261's magic cookie.
    static func branch() -> String { Via.magicCookie + token(20) }
}
