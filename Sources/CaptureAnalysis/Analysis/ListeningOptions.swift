import QualityMetrics
import PlayoutLab
import Capture

/// How the analyzer listens to streams through our jitter buffer: always replayed when this
/// exists, and written to WAV files when ``wavDirectory`` is set.
struct ListeningOptions {
    /// The folder for one WAV file per stream, `nil` for none.
    let wavDirectory: String?
    /// The capture's name without folder and extension, the start of every WAV file name.
    let captureStem: String
    /// The worker threads the replays run on, `nil` to run them on the reading thread.
    let lanes: ReplayLanes?

    /// `DIR/<capture stem>-<SSRC hex>-<source address>_<port>-<destination address>_<port>.wav`,
    /// with every character of an address other than letters, digits and dots as `-`; `nil`
    /// without a folder.
    func wavPath(for key: RTPStreamKey) -> String? {
        guard let wavDirectory else { return nil }
        func endpoint(_ endpoint: UDPEndpoint) -> String {
            let address = String(endpoint.address.description.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") ? $0 : "-" })
            return "\(address)_\(endpoint.port)"
        }
        let ssrc = key.ssrcHex.dropFirst(2)
        let name = "\(captureStem)-\(ssrc)-\(endpoint(key.source))-\(endpoint(key.destination)).wav"
        return wavDirectory.hasSuffix("/") ? wavDirectory + name : wavDirectory + "/" + name
    }

    /// `call` for `/captures/call.pcapng`.
    static func stem(ofPath path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
