internal import COpenSSL

/// Reads OpenSSL's thread-local error queue into text, emptying it.
enum OpenSSLErrorQueue {
    /// `context` followed by every queued error string, or by "no detail" when the queue is empty.
    static func drain(context: String) -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "\(context): no detail" : "\(context): \(messages.joined(separator: "; "))"
    }

    /// Discards whatever is queued, so that a later failure reports only its own errors.
    static func clear() {
        ERR_clear_error()
    }
}
