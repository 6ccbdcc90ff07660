import Codecs
import RTP
import Synchronization

/// The send path, owned by the audio thread: one frame at a time, encode into the packet
/// buffer, packetise, protect in place and send; also telephone events and RTCP, which share
/// its SRTP session and timestamp clock. Before each frame it sizes the encoder's FEC for the
/// loss the peer reports (``LossAdaptation``). Nothing is allocated per packet.
///
/// Only the thread that ticks the call touches it, so its properties skip Swift's run-time
/// exclusivity check (`@exclusivity(unchecked)`), a thread-local lookup per access.
final class SendPath {
    private static let bufferBytes = 1536
    /// Room kept free for the SRTP tag and MKI.
    private static let srtpReserve = 64
    /// Frames of audio between two telephone events.
    private static let interDigitGapFrames = 3

    private let socket: UDPSocket
    private let rtcpSocket: UDPSocket
    @exclusivity(unchecked) private var encoder: any AudioEncoder
    @exclusivity(unchecked) private var outbound: SRTPOutboundSession?
    private let buffer: UnsafeMutableRawBufferPointer
    private let ssrc: UInt32
    private let cname: String
    private let audioPayloadType: UInt8
    private let telephoneEventPayloadType: UInt8?
    private let comfortNoiseOnMute: Bool
    private let digitDurationUnits: UInt32

    @exclusivity(unchecked) private var sequence: SequenceNumber
    @exclusivity(unchecked) private var timestamps: SendTimestamps
    @exclusivity(unchecked) private var talkspurtStarts = true
    @exclusivity(unchecked) private var sentComfortNoise = false
    @exclusivity(unchecked) private var dtmf: DTMFSender
    @exclusivity(unchecked) private var gapFrames = 0
    @exclusivity(unchecked) private var packetsSent: UInt32 = 0
    @exclusivity(unchecked) private var payloadBytesSent: UInt32 = 0
    /// The send counters, published for the control plane after each packet.
    let counters = SendCounters()
    @exclusivity(unchecked) private var sentSinceLastReport = false
    /// The peer's newest loss report, written by the receive path.
    private let reportedLoss: ReportedLoss
    /// The expected loss FEC is sized for; nil when the encoder sends no FEC or the
    /// configuration keeps the SDP's fixed setting.
    @exclusivity(unchecked) private var expectedLoss: ExpectedLossTracker?
    /// The peer the RTP socket is connected to (``connect(to:)``), sent to without an address.
    @exclusivity(unchecked) private var connectedPeer: SocketAddress?

    init(
        media: NegotiatedAudio, configuration: MediaSessionConfiguration, encoder: any AudioEncoder,
        outbound: consuming SRTPOutboundSession?, socket: UDPSocket, rtcpSocket: UDPSocket, reportedLoss: ReportedLoss
    ) {
        self.socket = socket
        self.rtcpSocket = rtcpSocket
        self.encoder = encoder
        self.outbound = outbound
        ssrc = configuration.ssrc
        cname = configuration.cname
        audioPayloadType = UInt8(truncatingIfNeeded: media.sendCodec.payloadType)
        telephoneEventPayloadType = media.telephoneEventPayloadType.map { UInt8(truncatingIfNeeded: $0) }
        comfortNoiseOnMute = configuration.muteBehaviour == .comfortNoise && media.sendCodec.map.clockRate == 8000
        // Event durations count in the telephone-event format's own clock (8000 beside Opus
        // for many peers); the events' RTP timestamps stay on the stream's audio clock.
        let eventClockRate = media.telephoneEventClockRate ?? media.sendCodec.map.clockRate
        digitDurationUnits = UInt32(eventClockRate / 10)  // 100 ms per key press
        dtmf = DTMFSender(packetDuration: UInt32(eventClockRate * media.packetTimeMilliseconds / 1000))
        sequence = SequenceNumber(UInt16.random(in: 0...UInt16.max))
        timestamps = SendTimestamps(
            start: RTPTimestamp(UInt32.random(in: 0...UInt32.max)),
            unitsPerFrame: media.sendCodec.map.clockRate * media.packetTimeMilliseconds / 1000, clockRate: media.sendCodec.map.clockRate,
            captureSampleRate: encoder.format.sampleRate
        )
        buffer = .allocate(byteCount: Self.bufferBytes, alignment: 16)
        self.reportedLoss = reportedLoss
        if let policy = configuration.lossAdaptation, encoder.forwardErrorCorrectionLossPercent != nil {
            expectedLoss = ExpectedLossTracker(policy: policy, frameMilliseconds: media.packetTimeMilliseconds)
        }
        counters.forwardErrorCorrectionLossPercent = encoder.forwardErrorCorrectionLossPercent
    }

    deinit {
        buffer.deallocate()
    }

    /// Connects the RTP socket to `peer` (``UDPSocket/connect(to:)``), so that what goes to it
    /// is sent without a route or address lookup per packet; the socket then receives from
    /// `peer` only. A refusal leaves the socket as it was.
    func connect(to peer: SocketAddress) {
        guard (try? socket.connect(to: peer)) != nil else { return }
        connectedPeer = peer
    }

    /// Brings in the packet buffer's first lines (an audio packet's length), the counters
    /// each packet adds to and the SRTP session's state (its replay window, cipher context and
    /// HMAC states) ahead of a tick (``AudioLoop/prefetch(_:)``).
    func prefetchParts() {
        if let packet = buffer.baseAddress { CachePrefetch.memory(packet, lines: 4) }
        CachePrefetch.object(counters, lines: 1)
        outbound?.hotRegions { CachePrefetch.region($0, bytes: $1) }
    }

    /// Sends what one frame interval calls for: a telephone event while one is under way,
    /// nothing on hold, comfort noise or nothing when muted, else `pcm` encoded. The timestamp
    /// advances by one frame whatever is sent.
    func sendFrame(
        _ pcm: UnsafeBufferPointer<Int16>, sends: Bool, muted: Bool, to destination: SocketAddress, nextDigit: () -> UInt8?
    ) {
        defer { timestamps.advanceFrame() }
        adaptForwardErrorCorrection()
        guard sends else {
            talkspurtStarts = true
            return
        }
        if sendTelephoneEvent(to: destination, nextDigit: nextDigit) { return }
        if muted {
            talkspurtStarts = true
            guard comfortNoiseOnMute, !sentComfortNoise else { return }
            sentComfortNoise = true
            send(payloadType: ComfortNoisePayloadType.value, marker: false, timestamp: timestamps.next, to: destination) { space in
                (try? ComfortNoisePayload.write(noiseLevel: 127, into: space)) ?? 0
            }
            return
        }
        sentComfortNoise = false
        let marker = talkspurtStarts
        talkspurtStarts = false
        send(payloadType: audioPayloadType, marker: marker, timestamp: timestamps.next, to: destination) { space in
            (try? encoder.encode(pcm, into: space)) ?? 0
        }
    }

    /// Skips the media time of `frames` capture frames the capture lost (an overrun): what is
    /// sent next goes out that much later in RTP time (in whole frames, ``SendTimestamps``),
    /// with the next sequence number and the marker of a talkspurt's start, so that the peer
    /// takes the gap for the sender's pause (RFC 3551 §4.1) rather than its clock stepping back,
    /// and the sender reports' RTP time keeps up with their NTP time.
    func skipLostCapture(frames: Int) {
        if timestamps.skip(lostCaptureFrames: frames) > 0 { talkspurtStarts = true }
    }

    /// Moves the expected loss on by one frame and tells the encoder (which calls its library
    /// only when the rounded value changes); publishes the setting when it changed.
    private func adaptForwardErrorCorrection() {
        guard let percent = expectedLoss?.advanceFrame(latest: reportedLoss.latest) else { return }
        let before = encoder.forwardErrorCorrectionLossPercent
        encoder.adaptForwardErrorCorrection(toLossPercent: percent)
        let after = encoder.forwardErrorCorrectionLossPercent
        if after != before { counters.forwardErrorCorrectionLossPercent = after }
    }

    /// Sends the next packet of the current or next key press; false when there is none.
    private func sendTelephoneEvent(to destination: SocketAddress, nextDigit: () -> UInt8?) -> Bool {
        guard let eventType = telephoneEventPayloadType else { return false }
        if !dtmf.isActive {
            guard gapFrames == 0 else {
                gapFrames -= 1
                return false
            }
            guard let digit = nextDigit() else { return false }
            dtmf.start(event: digit, timestamp: timestamps.next, duration: digitDurationUnits)
        }
        guard let event = dtmf.nextPacket() else { return false }
        if !dtmf.isActive { gapFrames = Self.interDigitGapFrames }
        send(payloadType: eventType, marker: event.marker, timestamp: event.timestamp, to: destination) { space in
            (try? event.payload.write(into: space)) ?? 0
        }
        talkspurtStarts = true
        return true
    }

    /// Builds one packet whose payload `writePayload` puts in place, protects and sends it.
    private func send(
        payloadType: UInt8, marker: Bool, timestamp: RTPTimestamp, to destination: SocketAddress,
        writePayload: (UnsafeMutableRawBufferPointer) -> Int
    ) {
        let header = RTPHeaderFields(marker: marker, payloadType: payloadType, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc)
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[..<(Self.bufferBytes - Self.srtpReserve)])
        let payloadBytes: Int
        var length: Int
        do {
            var builder = try RTPPacketBuilder(into: room, header: header)
            payloadBytes = writePayload(try builder.payloadSpace())
            guard payloadBytes > 0 else { return }
            try builder.commitPayload(byteCount: payloadBytes)
            length = try builder.finish()
        } catch {
            return
        }
        guard protect(&length, rtcp: false) else { return }
        // Once protected, the sequence number is spent, whether the network takes the packet or not.
        sequence = sequence.advanced(by: 1)
        guard transmit(length, on: socket, to: destination) else { return }
        packetsSent &+= 1
        payloadBytesSent &+= UInt32(truncatingIfNeeded: payloadBytes)
        sentSinceLastReport = true
        counters.rtpPackets.add(1, ordering: .relaxed)
        counters.rtpPayloadBytes.add(payloadBytes, ordering: .relaxed)
    }

    /// Sends an RTCP compound: SR when we sent since the last report (else RR), the report
    /// block about the peer if any, SDES CNAME, an XR with `voipMetrics` when given (RFC 3611),
    /// and BYE when `goodbye`. Returns the NTP time of the SR when one went out (the quality
    /// monitor times the round trip from it).
    @discardableResult
    func sendReport(
        about block: RTCPReportBlock?, voipMetrics: RTCPVoIPMetrics?, now: MediaTime, goodbye: Bool, to destination: SocketAddress
    ) -> NTPTimestamp? {
        let blocks = block.map { [$0] } ?? []
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[..<(Self.bufferBytes - Self.srtpReserve)])
        var length: Int
        let ntpTimestamp = NTPTimestamp(unixTime: now)
        let isSenderReport = sentSinceLastReport
        do {
            var builder = RTCPCompoundBuilder(into: room)
            if isSenderReport {
                let info = RTCPSenderInfo(
                    ntpTimestamp: ntpTimestamp, rtpTimestamp: timestamps.next,
                    packetCount: packetsSent, octetCount: payloadBytesSent
                )
                try builder.addSenderReport(ssrc: ssrc, senderInfo: info, reportBlocks: blocks)
            } else {
                try builder.addReceiverReport(ssrc: ssrc, reportBlocks: blocks)
            }
            try builder.addSourceDescription([RTCPSourceDescriptionChunk(ssrc: ssrc, items: [RTCPSourceDescriptionItem(.cname, cname)])])
            if let voipMetrics { try builder.addExtendedReport(ssrc: ssrc, voipMetrics: [voipMetrics]) }
            if goodbye { try builder.addGoodbye(ssrcs: [ssrc]) }
            length = try builder.finish()
        } catch {
            return nil
        }
        guard protect(&length, rtcp: true), transmit(length, on: rtcpSocket, to: destination) else { return nil }
        sentSinceLastReport = false
        counters.rtcpPackets.add(1, ordering: .relaxed)
        return isSenderReport ? ntpTimestamp : nil
    }

    private func protect(_ length: inout Int, rtcp: Bool) -> Bool {
        guard outbound != nil else { return true }
        do {
            length = rtcp ? try outbound!.protectRTCP(in: buffer, length: length) : try outbound!.protectRTP(in: buffer, length: length)
            return true
        } catch {
            counters.failures.add(1, ordering: .relaxed)
            return false
        }
    }

    private func transmit(_ length: Int, on socket: UDPSocket, to destination: SocketAddress) -> Bool {
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<length])
        let sent =
            socket === self.socket && destination == connectedPeer
            ? (try? socket.sendToPeer(bytes)) ?? false : (try? socket.send(bytes, to: destination)) ?? false
        if !sent { counters.failures.add(1, ordering: .relaxed) }
        return sent
    }
}

/// The static RTP payload type of RFC 3389 comfort noise at 8 kHz.
enum ComfortNoisePayloadType {
    static let value: UInt8 = 13
}

/// What the send path has sent, for ``MediaSessionStatistics``: written by the thread that
/// ticks the call, read by any thread, each figure one relaxed atomic (no lock per packet).
final class SendCounters: Sendable {
    let rtpPackets = Atomic<Int>(0)
    let rtpPayloadBytes = Atomic<Int>(0)
    let rtcpPackets = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    /// The FEC setting, -1 for none.
    private let forwardErrorCorrection = Atomic<Int>(-1)

    /// The loss the encoder sizes its FEC for, if it sends any.
    var forwardErrorCorrectionLossPercent: Int? {
        get {
            let percent = forwardErrorCorrection.load(ordering: .relaxed)
            return percent < 0 ? nil : percent
        }
        set { forwardErrorCorrection.store(newValue.map { max($0, 0) } ?? -1, ordering: .relaxed) }
    }
}
