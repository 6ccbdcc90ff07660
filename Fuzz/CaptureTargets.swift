import Capture
import Foundation

extension FuzzTarget {
    /// The Capture module's fuzz targets.
    static let capture: [FuzzTarget] = [captureFrame, captureFile, captureAddressText]

    /// The frame decoder: the first byte picks the link type and how much the "capture" cut off,
    /// the rest is the frame. Touches every payload byte so AddressSanitizer sees a bad view.
    static let captureFrame = FuzzTarget(name: "capture-frame") { bytes in
        guard let selector = bytes.first else { return }
        let linkType = fuzzedLinkTypes[Int(selector & 0x0F) % fuzzedLinkTypes.count]
        let frameBytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        let frame = CaptureFrame(linkType: linkType, bytes: frameBytes, originalLength: frameBytes.count + Int(selector >> 4) * 64)
        guard case .datagram(let datagram) = frame.decodeUDP() else { return }
        precondition(datagram.payload.count <= datagram.declaredPayloadLength, "payload longer than declared")
        var sum: UInt8 = 0
        for byte in datagram.payload { sum &+= byte }
        _ = sum
    }

    /// The file reader: the input is written to a temporary file, read to the end and decoded.
    static let captureFile = FuzzTarget(name: "capture-file") { bytes in
        guard (try? Data(bytes).write(to: fuzzedFileURL)) != nil else { return }
        do throws(CaptureError) {
            var reader = try CaptureReader(path: fuzzedFileURL.path)
            var statistics = CaptureStatistics()
            try reader.forEachUDPDatagram(counting: &statistics) { _ in }
            precondition(statistics.frames == reader.framesRead, "statistics lost a frame")
        } catch {
            _ = error.description
        }
    }

    /// Address text: whatever parses must print in a form that parses back to the same address.
    static let captureAddressText = FuzzTarget(name: "capture-address-text") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let address = IPAddress(text) else { return }
        precondition(IPAddress(address.description) == address, "address text does not round-trip")
    }

    /// The link types the frame target chooses from: every decodable one and one unknown.
    private static let fuzzedLinkTypes: [LinkType] = [
        .ethernet, .linuxSLL, .linuxSLL2, .raw, .rawIP, .null, .loop, .ipv4, .ipv6, LinkType(rawValue: 147),
    ]

    /// One file per fuzzing process.
    private static let fuzzedFileURL = FileManager.default.temporaryDirectory
        .appendingPathComponent("mediafuzz-capture-\(ProcessInfo.processInfo.processIdentifier).pcap")
}
