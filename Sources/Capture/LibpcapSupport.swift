internal import CPcap
internal import Glibc

/// Helpers shared by the reader and the writer for talking to libpcap and the C library.
enum Libpcap {
    /// A zeroed buffer of `PCAP_ERRBUF_SIZE` bytes for libpcap's error messages.
    static func errorBuffer() -> [CChar] {
        [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
    }

    /// The NUL-terminated text in `buffer` (all of it if there is no NUL).
    static func message(in buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The last error libpcap recorded on `handle`.
    static func lastError(of handle: OpaquePointer) -> String {
        pcap_geterr(handle).map { String(cString: $0) } ?? "unknown libpcap error"
    }

    /// The C library's text for `errno` value `code`.
    static func systemMessage(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
