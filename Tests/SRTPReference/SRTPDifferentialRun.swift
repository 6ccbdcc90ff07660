import RTP

/// Our SRTP sessions and libsrtp2's driven through the same script of operations, compared
/// after every step: protect must give the same octets or the same error, unprotect the same
/// plaintext or the same error. The differential tests and the differential fuzz target run it.
///
/// A script is any octet string, read one decision at a time (an exhausted script reads as
/// zeros): a suite, a key, a replay window, an SRTCP tag length, then operations on two SSRCs:
/// the next packet, sequence jumps forwards and back (sequence wrap, ROC changes), RTCP, raw
/// octets as RTP or RTCP, rollover counters set on both sides, and deliveries to the receivers of
/// earlier packets intact (replays, reordering), tampered in one bit, or truncated.
public final class SRTPDifferentialRun {
    /// What the two implementations disagreed on, with the step and both outcomes.
    public struct Disagreement: Error, CustomStringConvertible {
        /// One line naming the operation and the two outcomes.
        public let description: String
    }

    /// The outcome of one transform: the packet it produced, or the error.
    typealias Outcome = Result<[UInt8], SRTPError>

    private var ourSender: SRTPOutboundSession
    private var ourReceiver: SRTPInboundSession
    private let libsrtp: (sender: LibSRTPSession, receiver: LibSRTPSession)
    /// The suite of the sessions.
    public let suite: SRTPCryptoSuite
    private var sequences: [UInt16] = [0, 0]
    private var history: [(packet: [UInt8], rtcp: Bool)] = []
    /// Steps run so far.
    public private(set) var steps = 0
    /// Packets both receivers accepted.
    public private(set) var accepted = 0
    private static let ssrcs: [UInt32] = [0x1234_5678, 0xCAFE_F00D]
    private static let historyLength = 32

    /// Creates both pairs of sessions from the start of `script`: suite, key, window, SRTCP tag.
    public init(script: inout SRTPScript) throws {
        suite = SRTPCryptoSuite.allCases[Int(script.next()) % SRTPCryptoSuite.allCases.count]
        let key = try SRTPMasterKey(suite: suite, keyAndSalt: (0..<suite.keyMaterialLength).map { _ in script.next() })
        var options = SRTPSessionOptions()
        options.replayWindowSize = [64, 128, 160, 1024, 4096][Int(script.next()) % 5]
        options.rtcpTagLength = script.next() & 1 == 0 ? .rfc3711 : .sameAsRTP
        ourSender = try SRTPOutboundSession(key: key, options: options)
        ourReceiver = try SRTPInboundSession(key: key, options: options)
        libsrtp = (
            try LibSRTPSession(
                key: key, direction: .outbound, replayWindowSize: options.replayWindowSize,
                rtcpTagLength: options.rtcpTagLength),
            try LibSRTPSession(
                key: key, direction: .inbound, replayWindowSize: options.replayWindowSize,
                rtcpTagLength: options.rtcpTagLength)
        )
    }

    /// Runs operations until the script ends (at most `maximumSteps` of them), throwing the
    /// first disagreement. A run can go on with further scripts: its sessions keep their state.
    public func run(_ script: inout SRTPScript, maximumSteps: Int = 10_000) throws(Disagreement) {
        var taken = 0
        while !script.isAtEnd && taken < maximumSteps {
            try step(&script)
            taken += 1
        }
    }

    /// Runs one operation chosen by the script.
    private func step(_ script: inout SRTPScript) throws(Disagreement) {
        steps += 1
        let operation = script.next()
        let source = Int(operation >> 7)
        switch operation & 0x7F {
        case 0..<40:
            try send(rtp(source: source, advancingBy: 1, script: &script))
        case 40..<50:
            try send(rtp(source: source, advancingBy: script.nextUInt16(), script: &script))
        case 50..<56:
            try send(rtp(source: source, advancingBy: 0 &- UInt16(script.next() % 200), script: &script))
        case 56..<66:
            try send(rtcp(source: source, script: &script), rtcp: true)
        case 66..<70:
            // Arbitrary octets, but from one of four SSRCs: a new SSRC per packet would make
            // our sessions evict streams (they keep 16) where libsrtp keeps every one.
            var raw = (0..<Int(script.next() % 64)).map { _ in script.next() }
            let rtcp = operation & 1 == 1
            let ssrcOffset = rtcp ? 4 : 8
            if raw.count >= ssrcOffset + 4 {
                raw.replaceSubrange(ssrcOffset..<(ssrcOffset + 4), with: Self.octets(Self.ssrcs[source] ^ UInt32(operation & 2)))
            }
            try send(raw, rtcp: rtcp)
        case 70..<73:
            try setRolloverCounter(source: source, script: &script)
        case 73..<90:
            try deliver(script: &script) { packet, _ in packet }
        case 90..<110:
            try deliver(script: &script) { packet, script in
                var tampered = packet
                if !tampered.isEmpty {
                    tampered[Int(script.nextUInt16()) % tampered.count] ^= 1 << (script.next() & 7)
                }
                return tampered
            }
        default:
            try deliver(script: &script) { packet, script in Array(packet.dropLast(Int(script.next() % 24) + 1)) }
        }
    }

    /// An RTP packet of SSRC `source` with its sequence number moved by `step`; a few have
    /// CSRCs or a header extension, the payload length and octets come from the script.
    private func rtp(source: Int, advancingBy step: UInt16, script: inout SRTPScript) -> [UInt8] {
        sequences[source] &+= step
        let sequence = sequences[source]
        let shape = script.next()
        let csrcCount = shape & 0x80 != 0 ? Int(shape & 3) : 0
        let extensionWords = shape & 0x40 != 0 ? Int(shape >> 2 & 3) : -1
        var packet: [UInt8] = [
            0x80 | UInt8(csrcCount) | (extensionWords >= 0 ? 0x10 : 0), 0x00,
            UInt8(sequence >> 8), UInt8(truncatingIfNeeded: sequence),
        ]
        packet += Self.octets(UInt32(sequence) &* 160) + Self.octets(Self.ssrcs[source])
        packet += (0..<(4 * csrcCount)).map { UInt8($0) }
        if extensionWords >= 0 {
            packet += [0xBE, 0xDE, 0, UInt8(extensionWords)] + [UInt8](repeating: 0x11, count: 4 * extensionWords)
        }
        let payloadLength = Int(script.next()) % 200
        packet += (0..<payloadLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(sequence)) }
        return packet
    }

    /// An RTCP receiver report from SSRC `source`, its last octet from the script.
    private func rtcp(source: Int, script: inout SRTPScript) -> [UInt8] {
        [0x81, 201, 0x00, 0x07] + Self.octets(Self.ssrcs[source])
            + [0xCA, 0xFE, 0xBA, 0xBE, 0x05, 0x00, 0x00, 0x10, 0x00, 0x00, 0x12, 0x34]
            + [0x00, 0x00, 0x00, 0x20, 0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x10, script.next()]
    }

    /// Protects `packet` on both senders; they must agree. A protected packet joins the history.
    private func send(_ packet: [UInt8], rtcp: Bool = false) throws(Disagreement) {
        let operation: SRTPOperation = rtcp ? .protectRTCP : .protectRTP
        let mine = Self.transform(packet) { buffer, length throws(SRTPError) in
            rtcp
                ? try ourSender.protectRTCP(in: buffer, length: length)
                : try ourSender.protectRTP(in: buffer, length: length)
        }
        let theirs = Self.transform(packet) { buffer, length throws(SRTPError) in
            try libsrtp.sender.transform(operation, buffer: buffer, length: length)
        }
        try compare(mine, theirs, operation, packet)
        if case .success(let protected) = mine {
            history.append((protected, rtcp))
            if history.count > Self.historyLength { history.removeFirst() }
        }
    }

    /// Unprotects an earlier packet (chosen by the script), changed by `change`, on both
    /// receivers; they must agree.
    private func deliver(
        script: inout SRTPScript, _ change: ([UInt8], inout SRTPScript) -> [UInt8]
    ) throws(Disagreement) {
        guard !history.isEmpty else { return }
        let chosen = history[history.count - 1 - Int(script.next()) % history.count]
        let packet = change(chosen.packet, &script)
        let operation: SRTPOperation = chosen.rtcp ? .unprotectRTCP : .unprotectRTP
        let mine = Self.transform(packet) { buffer, length throws(SRTPError) in
            chosen.rtcp
                ? try ourReceiver.unprotectRTCP(in: buffer, length: length)
                : try ourReceiver.unprotectRTP(in: buffer, length: length)
        }
        let theirs = Self.transform(packet) { buffer, length throws(SRTPError) in
            try libsrtp.receiver.transform(operation, buffer: buffer, length: length)
        }
        try compare(mine, theirs, operation, packet)
        if case .success = mine { accepted += 1 }
    }

    /// Sets the same rollover counter on both sides of both implementations, where libsrtp has
    /// the stream (it refuses otherwise, and then ours is left alone too).
    private func setRolloverCounter(source: Int, script: inout SRTPScript) throws(Disagreement) {
        let ssrc = Self.ssrcs[source]
        let rolloverCounter = UInt32(script.nextUInt16())
        if (try? libsrtp.sender.setRolloverCounter(rolloverCounter, ssrc: ssrc)) != nil {
            ourSender.setRolloverCounter(rolloverCounter, ssrc: ssrc)
        }
        if (try? libsrtp.receiver.setRolloverCounter(rolloverCounter, ssrc: ssrc)) != nil {
            ourReceiver.setRolloverCounter(rolloverCounter, ssrc: ssrc)
        }
    }

    private func compare(_ mine: Outcome, _ theirs: Outcome, _ operation: SRTPOperation, _ packet: [UInt8]) throws(Disagreement) {
        guard mine != theirs else { return }
        throw Disagreement(
            description: "\(suite) step \(steps), \(operation) of \(Self.hex(packet)): ours \(Self.describe(mine)), libsrtp \(Self.describe(theirs))")
    }

    /// Runs `body` on a copy of `packet` in a buffer with room for what protect adds.
    private static func transform(
        _ packet: [UInt8], _ body: (UnsafeMutableRawBufferPointer, Int) throws(SRTPError) -> Int
    ) -> Outcome {
        var buffer = packet + [UInt8](repeating: 0, count: 64)
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SRTPError) in try body(bytes, packet.count) }
        }
        return result.map { Array(buffer[..<$0]) }
    }

    private static func octets(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .success(let packet): "ok \(hex(packet))"
        case .failure(let error): "\(error)"
        }
    }
}

/// The octets that drive an ``SRTPDifferentialRun``, read one at a time; zeros once used up.
public struct SRTPScript {
    private let octets: [UInt8]
    private var position = 0

    /// A script of `octets`.
    public init(_ octets: some Sequence<UInt8>) {
        self.octets = Array(octets)
    }

    /// Whether every octet has been read.
    public var isAtEnd: Bool { position >= octets.count }

    /// The next octet, or 0 past the end.
    public mutating func next() -> UInt8 {
        defer { position += 1 }
        return position < octets.count ? octets[position] : 0
    }

    /// The next two octets as a big-endian number.
    public mutating func nextUInt16() -> UInt16 {
        UInt16(next()) << 8 | UInt16(next())
    }
}
