import Foundation
import Glibc
import Synchronization

/// One HTTP/1.1 request as the page and the offer endpoint need it.
struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    let method: String
    /// The path, without the query.
    let path: String
    /// The body (`Content-Length` octets).
    let body: [UInt8]
}

/// One HTTP/1.1 response; the connection closes after it.
struct HTTPResponse: Sendable {
    /// The status code.
    let status: Int
    /// The `Content-Type`.
    let contentType: String
    /// The body.
    let body: [UInt8]

    /// A response with a UTF-8 text body.
    init(status: Int = 200, contentType: String, text: String) {
        self.init(status: status, contentType: contentType, body: Array(text.utf8))
    }

    /// A response with `body`.
    init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A JSON response of `object` (anything `JSONSerialization` takes).
    static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: Array(data))
    }
}

/// A small HTTP/1.1 server for the `webrtc` command's page: one listening socket on a loopback
/// address, one connection at a time on its own thread, `Connection: close` after each response.
final class LoopbackHTTPServer: Sendable {
    /// Answers one request.
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The largest request body accepted (the page's recording of a call is a few megabytes).
    static let maximumBodyBytes = 32 << 20

    /// The bound port.
    let port: UInt16
    private let descriptor: Int32
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Binds `host` (an IPv4 loopback literal) and `port` (0 for any) and starts serving.
    init(host: String, port: UInt16, handler: @escaping Handler) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1, host.hasPrefix("127.") else {
            throw CommandFailure("--listen: \(host) is not an IPv4 loopback address (127.x.x.x)")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CommandFailure("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw CommandFailure("--listen \(host):\(port): \(reason)")
        }
        var boundAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = UInt16(bigEndian: boundAddress.sin_port)
        self.descriptor = descriptor
        let thread = Thread { [self] in serve(handler) }
        thread.name = "webrtc-http"
        thread.start()
    }

    /// Stops accepting and waits for the serving thread.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        close(descriptor)
    }

    private func serve(_ handler: Handler) {
        while !stopping.load(ordering: .acquiring) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let response = Self.read(connection).map(handler) ?? HTTPResponse(status: 400, contentType: "text/plain", text: "bad request\n")
            Self.write(response, to: connection)
            close(connection)
        }
        finished.signal()
    }

    /// Reads the request line, the headers and a `Content-Length` body; nil when malformed.
    private static func read(_ connection: Int32) -> HTTPRequest? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0, received.count < 65_536 else { return nil }
            received += chunk[0..<count]
            headerEnd = received.firstRange(of: separator)?.upperBound
        }
        guard let headerEnd else { return nil }
        let head = String(decoding: received[..<headerEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var contentLength = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? -1
        }
        guard (0...maximumBodyBytes).contains(contentLength) else { return nil }
        var body = Array(received[headerEnd...])
        while body.count < contentLength {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body += chunk[0..<count]
        }
        let path = requestLine[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        return HTTPRequest(method: String(requestLine[0]), path: path, body: Array(body.prefix(contentLength)))
    }

    private static func write(_ response: HTTPResponse, to connection: Int32) {
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 409: "Conflict", 500: "Internal Server Error"][response.status] ?? "Status"
        let head =
            "HTTP/1.1 \(response.status) \(reason)\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8) + response.body
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeMutableBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
