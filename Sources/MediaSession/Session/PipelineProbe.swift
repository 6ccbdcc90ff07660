import Codecs
import Jitter
import QualityMetrics
import RTP
import Locking

/// The send and receive paths of a call driven by hand on the caller's thread, without the
/// audio and I/O threads, so tests can count what one frame costs (allocations, time).
/// Not part of the API.
@_spi(Testing) public final class PipelineProbe {
    private let send: SendPath
    private let receive: ReceivePath
    private let jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>
    private let receiver: UDPSocket
    private let destination: SocketAddress
    private var batch = DatagramBatch(capacity: 8)
    private let frame: UnsafeMutableBufferPointer<Int16>
    private let played: UnsafeMutableBufferPointer<Int16>
    private var clockMilliseconds = 0.0
    /// The probe's clock as the receive path reads it (monotonic and wall alike).
    private let clock = ManualClock()

    /// A PCMU call from one loopback socket to another, protected with `suite` when given.
    public init(suite: SRTPCryptoSuite?) throws {
        let sender = try UDPSocket(binding: .loopbackIPv4())
        receiver = try UDPSocket(binding: .loopbackIPv4())
        destination = receiver.localAddress
        let codec = NegotiatedCodec(payloadType: 0, map: RTPMap(encodingName: "PCMU", clockRate: 8000))
        let media = NegotiatedAudio(
            remoteAddress: destination.host, remoteRTPPort: Int(destination.port), remoteRTCPPort: Int(destination.port),
            rtcpMux: true, sendCodec: codec, receiveCodecs: [codec], telephoneEventPayloadType: 101,
            packetTimeMilliseconds: 20, direction: .sendReceive, crypto: nil
        )
        var outbound: SRTPOutboundSession?
        var inbound: SRTPInboundSession?
        if let suite {
            let key = SRTPMasterKey.random(for: suite)
            outbound = try SRTPOutboundSession(key: key)
            inbound = try SRTPInboundSession(key: key)
        }
        let codecs = try CallCodecs(media: media)
        jitterBuffer = SynchronizedJitterBuffer(decoder: SessionDecoder(codecs.decoder))
        let (_, events) = AsyncStream<MediaSessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(1))
        receive = ReceivePath(
            media: media, inbound: inbound, jitterBuffer: jitterBuffer,
            monitor: PThreadLock(QualityMonitor(codec: MonitoredCodec(encodingName: "PCMU", clockRate: 8000, packetDurationMilliseconds: 20), start: .zero)),
            clock: MediaClock(monotonic: clock, wall: clock), epoch: .zero, latches: true, comfortNoisePayloadType: 13, events: events
        )
        send = SendPath(
            media: media, configuration: MediaSessionConfiguration(), encoder: codecs.encoder, outbound: outbound,
            socket: sender, rtcpSocket: sender, reportedLoss: ReportedLoss()
        )
        frame = .allocate(capacity: 160)
        for index in 0..<160 { (frame.baseAddress! + index).initialize(to: Int16(truncatingIfNeeded: index * 97)) }
        played = .allocate(capacity: jitterBuffer.samplesPerPull)
        played.initialize(repeating: 0)
    }

    deinit {
        frame.deallocate()
        played.deallocate()
    }

    /// Sends one 20 ms frame, receives it on the other socket, and plays 20 ms from the
    /// jitter buffer; returns how many packets the receive path accepted so far.
    @discardableResult
    public func exchangeFrame() -> Int {
        sendFrame()
        receiveWaiting()
        playFrame()
        return receive.statistics.rtpPacketsReceived
    }

    /// Sends one 20 ms frame (encode, packetise, protect, `sendto`).
    public func sendFrame() {
        send.sendFrame(UnsafeBufferPointer(frame), sends: true, muted: false, to: destination) { nil }
    }

    /// Takes every datagram waiting on the receiving socket through the receive path
    /// (recvmmsg, classify, unprotect, parse, statistics, quality monitor, jitter buffer
    /// insert), stamped on the probe's clock; returns how many.
    @discardableResult
    public func receiveWaiting() -> Int {
        var total = 0
        while let received = try? receiver.receive(into: &batch), received > 0 {
            for index in 0..<received {
                // Stamped on the probe's own clock, which the pulls follow.
                let datagram = batch[index]
                let stamp = Int64(clockMilliseconds * 1_000_000) + 1
                clock.set(nanoseconds: stamp)
                receive.receive(
                    ReceivedDatagram(bytes: datagram.bytes, source: datagram.source, arrivalNanoseconds: stamp, isTruncated: datagram.isTruncated))
            }
            total += received
        }
        return total
    }

    /// Plays 20 ms from the jitter buffer (two 10 ms pulls), moving the probe's clock on.
    public func playFrame() {
        for _ in 0..<2 {
            clockMilliseconds += 10
            _ = jitterBuffer.pull(into: played, nowMilliseconds: clockMilliseconds)
        }
    }
}
