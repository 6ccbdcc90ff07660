import Capture
import QualityMetrics
import CaptureAnalysis

extension FuzzTarget {
    /// The QualityMetrics module's fuzz targets.
    static let qualityMetrics: [FuzzTarget] = [analyzerSessionDescription, analyzerDatagrams]

    /// The SIP/SDP scanner: the input is a SIP message (or an SDP body on its own).
    static let analyzerSessionDescription = FuzzTarget(name: "analyzer-sdp") { bytes in
        let payload = UnsafeRawBufferPointer(bytes)
        for media in SessionDescriptionScanner.announcedMedia(inSIPMessage: payload)
            + SessionDescriptionScanner.announcedMedia(inSDP: payload)
        {
            precondition(media.payloadTypes.allSatisfy { $0 < 128 }, "payload type out of range")
            precondition(media.formats.keys.allSatisfy { $0 < 128 }, "rtpmap payload type out of range")
        }
    }

    /// The analyzer's per-datagram path (SIP, RTCP, RTP heuristic, stream statistics) and its
    /// reports. The input is a run of datagrams, each a 1-byte selector (which of four
    /// endpoint pairs, and a time step) and a 1-byte length, then that many payload bytes.
    static let analyzerDatagrams = FuzzTarget(name: "analyzer-datagrams") { bytes in
        var analyzer = CaptureAnalyzer()
        var offset = 0
        var datagrams = 0
        var milliseconds: Int64 = 0
        while offset + 2 <= bytes.count {
            let selector = bytes[offset]
            let length = min(Int(bytes[offset + 1]), bytes.count - offset - 2)
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + 2 + length)])
            offset += 2 + length
            milliseconds += Int64(selector >> 2)
            let pair = fuzzedEndpointPairs[Int(selector & 3)]
            analyzer.analyze(
                UDPDatagram(
                    frameNumber: datagrams + 1,
                    timestamp: CaptureTimestamp(nanosecondsSinceEpoch: milliseconds * 1_000_000),
                    source: pair.source, destination: pair.destination, payload: payload, declaredPayloadLength: length))
            datagrams += 1
        }
        let file = analyzer.report(path: "fuzz")
        precondition(file.datagrams.total == datagrams, "a datagram was not counted")
        precondition(file.streams.reduce(0) { $0 + $1.packets } == file.datagrams.rtp, "stream packets do not add up")
        let report = AnalysisReport(tool: ToolInfo(name: "fuzz", version: "0", options: [:]), files: [file])
        _ = report.text()
        _ = report.csv()
        _ = report.html()
    }

    /// Endpoint pairs for the datagram target: SIP, an even RTP port with its odd RTCP
    /// neighbour, and the reverse direction.
    private static let fuzzedEndpointPairs: [(source: UDPEndpoint, destination: UDPEndpoint)] = {
        let caller = IPAddress.v4(IPv4Address(192, 0, 2, 1))
        let callee = IPAddress.v4(IPv4Address(192, 0, 2, 2))
        return [
            (UDPEndpoint(address: caller, port: 5060), UDPEndpoint(address: callee, port: 5060)),
            (UDPEndpoint(address: caller, port: 4000), UDPEndpoint(address: callee, port: 6000)),
            (UDPEndpoint(address: caller, port: 4001), UDPEndpoint(address: callee, port: 6001)),
            (UDPEndpoint(address: callee, port: 6000), UDPEndpoint(address: caller, port: 4000)),
        ]
    }()
}
