import BenchmarkHarness
import Codecs
import Jitter
import PlayoutLab
import MediaSession
import QualityMetrics
import CaptureAnalysis
import RTP

/// What one session of a G.711 + SRTP call does in one second of audio, run on the calling
/// thread stage by stage with the functions the session calls, in its order and with its
/// profile's settings (echo cancelling and denoising on for the softphone, off for the server):
/// - 100 audio ticks: pull 10 ms from the jitter buffer, play it and capture 10 ms through a
///   ``MemoryAudioEndpoint``, echo cancel and denoise the capture when the profile does;
/// - 50 frames sent (encode, packetise, protect, `sendto`) and received on a second loopback
///   socket (`recvmmsg`, unprotect, parse and record, insert): the session hears its own
///   packets, which stand for its peer's and cost the same;
/// - RTCP compounds and one quality report.
///
/// Arrival and playout times follow a simulated clock, so the jitter buffer sees a perfect
/// network. The jitter buffer decodes with ``G711Decoder`` itself, where the session reaches it
/// through one existential call per frame. What this leaves out is what the threads cost: waking the audio thread every
/// 10 ms, epoll on the I/O thread, and the locks between them (the capacity run's CPU time
/// includes them).
final class SessionSecondLoop {
    /// Audio ticks per second.
    static let ticksPerSecond = 100
    /// RTCP compounds exchanged per simulated second; their time is scaled to the scheduled rate.
    static let rtcpExchangesPerSecond = 5
    /// The SDES CNAME, as long as a session's default one.
    private static let cname = "media-0123456789abc@engine"

    private let endpoint: MemoryAudioEndpoint
    /// The echo canceller and denoiser, nil when the profile runs none.
    private let echoCanceller: EchoCanceller?
    private let preprocessor: Preprocessor?
    private var encoder: any AudioEncoder
    private var outbound: SRTPOutboundSession
    private var inbound: SRTPInboundSession
    private let sender: UDPSocket
    private let receiver: UDPSocket
    private var batch = DatagramBatch(capacity: 32)
    private let jitterBuffer: SynchronizedJitterBuffer<G711Decoder>
    private var reception = ReceptionStatistics(clockRate: 8000)
    private var monitor: QualityMonitor
    private let voipMetrics = RTCPVoIPMetrics(ssrc: 0x5E55_1011, metrics: VoIPMetrics())
    private let packetBuffer: UnsafeMutableRawBufferPointer
    private let captured: UnsafeMutableBufferPointer<Int16>
    private let played: UnsafeMutableBufferPointer<Int16>
    private let frame: UnsafeMutableBufferPointer<Int16>
    private let ssrc: UInt32 = 0x5E55_1011
    private var sequence = SequenceNumber(0x1234)
    private var timestamp = RTPTimestamp(0x0BAD_CAFE)
    private var packetsSent: UInt32 = 0
    private var clockMilliseconds = 0.0

    /// A session protecting with `suite`, cancelling echo and denoising when
    /// `cancelsEchoAndDenoises`, whose microphone says `seconds` of ``TalkerSignal``.
    init(suite: SRTPCryptoSuite, cancelsEchoAndDenoises: Bool, seconds: Int) throws {
        endpoint = MemoryAudioEndpoint(source: TalkerSignal.samples(sampleRate: 8000, seconds: seconds), recordingCapacitySamples: 0)
        if cancelsEchoAndDenoises {
            let canceller = try EchoCanceller(
                sampleRate: 8000, frameMilliseconds: 10, tailMilliseconds: MediaSessionConfiguration().echoTailMilliseconds
            )
            let processor = try Preprocessor(sampleRate: 8000, frameMilliseconds: 10, configuration: PreprocessorConfiguration(denoise: true))
            try processor.attach(canceller)
            echoCanceller = canceller
            preprocessor = processor
        } else {
            echoCanceller = nil
            preprocessor = nil
        }
        let registry = CodecRegistry()
        encoder = try registry.makeEncoder(for: registry.describe(rtpmap: "PCMU/8000", ptime: 20))
        let key = SRTPMasterKey.random(for: suite)
        outbound = try SRTPOutboundSession(key: key)
        inbound = try SRTPInboundSession(key: key)
        sender = try UDPSocket(binding: .loopbackIPv4())
        receiver = try UDPSocket(binding: .loopbackIPv4())
        jitterBuffer = SynchronizedJitterBuffer(decoder: G711Decoder(law: .muLaw))
        monitor = QualityMonitor(codec: MonitoredCodec(encodingName: "PCMU", clockRate: 8000, packetDurationMilliseconds: 20), start: .zero)
        packetBuffer = .allocate(byteCount: 1536, alignment: 16)
        captured = .allocate(capacity: 80)
        played = .allocate(capacity: jitterBuffer.samplesPerPull)
        frame = .allocate(capacity: 160)
        for buffer in [captured, played, frame] { buffer.initialize(repeating: 0) }
    }

    deinit {
        packetBuffer.deallocate()
        captured.deallocate()
        played.deallocate()
        frame.deallocate()
    }

    /// Runs one second of the session, charging each stage's time to `timer`.
    func runOneSecond(_ timer: inout StageTimer) throws {
        for tick in 0..<Self.ticksPerSecond {
            let slot = UnsafeMutableBufferPointer(rebasing: frame[(tick % 2 * 80)..<(tick % 2 * 80 + 80)])
            try runTick(into: slot, &timer)
            if tick % 2 == 1 { try sendAndReceiveFrame(&timer) }
        }
        for _ in 0..<Self.rtcpExchangesPerSecond { try exchangeReport(&timer) }
        makeQualityReport(&timer)
    }

    /// Pull, play and capture, echo cancel and denoise into `slot`, as the audio thread's tick.
    private func runTick(into slot: UnsafeMutableBufferPointer<Int16>, _ timer: inout StageTimer) throws {
        timer.restart()
        _ = jitterBuffer.pull(into: played, nowMilliseconds: clockMilliseconds)
        timer.lap(.jitterPull)
        try endpoint.write(UnsafeBufferPointer(played))
        try endpoint.read(into: captured)
        timer.lap(.capture)
        if let echoCanceller, let preprocessor {
            try echoCanceller.cancel(captured: UnsafeBufferPointer(captured), playback: UnsafeBufferPointer(played), into: slot)
            try preprocessor.process(slot)
            timer.lap(.echoCancelAndDenoise)
        } else {
            _ = slot.update(fromContentsOf: captured)
            timer.lap(.capture)
        }
        clockMilliseconds += 10
    }

    /// The send path of one frame, then the receive path of the same packet.
    private func sendAndReceiveFrame(_ timer: inout StageTimer) throws {
        timer.restart()
        let header = RTPHeaderFields(marker: false, payloadType: 0, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc)
        var builder = try RTPPacketBuilder(into: room, header: header)
        let space = try builder.payloadSpace()
        timer.lap(.rtpPacketise)
        let payloadBytes = try encoder.encode(UnsafeBufferPointer(frame), into: space)
        timer.lap(.g711Encode)
        try builder.commitPayload(byteCount: payloadBytes)
        let length = try builder.finish()
        timer.lap(.rtpPacketise)
        let protectedLength = try outbound.protectRTP(in: packetBuffer, length: length)
        timer.lap(.srtpProtect)
        try send(protectedLength)
        timer.lap(.udpSend)
        sequence = sequence.advanced(by: 1)
        timestamp = timestamp.advanced(by: 160)
        packetsSent &+= 1
        let datagram = try receiveOne()
        timer.lap(.udpReceive)
        guard DatagramClassifier.classify(UnsafeRawBufferPointer(datagram)) == .rtp else {
            throw SessionBenchError("the loopback packet was not classified as RTP")
        }
        timer.lap(.rtpParseAndStatistics)
        let plainLength = try inbound.unprotectRTP(in: datagram, length: datagram.count)
        timer.lap(.srtpUnprotect)
        let packet = try RTPPacket(UnsafeRawBufferPointer(rebasing: datagram[..<plainLength]))
        _ = reception.record(packet, arrival: arrival, updatesJitter: true)
        monitor.recordArrival(ReceptionCounters(reception))
        timer.lap(.rtpParseAndStatistics)
        guard jitterBuffer.insert(packet, arrivalMilliseconds: clockMilliseconds) else {
            throw SessionBenchError("the jitter buffer refused packet \(packet.sequenceNumber.rawValue)")
        }
        timer.lap(.jitterInsert)
    }

    /// One RTCP compound as the audio thread sends it and the I/O thread takes it.
    private func exchangeReport(_ timer: inout StageTimer) throws {
        timer.restart()
        let now = arrival
        var builder = RTCPCompoundBuilder(into: room)
        let info = RTCPSenderInfo(
            ntpTimestamp: NTPTimestamp(unixTime: now), rtpTimestamp: timestamp, packetCount: packetsSent, octetCount: packetsSent &* 160
        )
        try builder.addSenderReport(ssrc: ssrc, senderInfo: info, reportBlocks: [reception.makeReportBlock(ssrc: ssrc, now: now)])
        try builder.addSourceDescription([RTCPSourceDescriptionChunk(ssrc: ssrc, items: [RTCPSourceDescriptionItem(.cname, Self.cname)])])
        try builder.addExtendedReport(ssrc: ssrc, voipMetrics: [voipMetrics])
        let length = try outbound.protectRTCP(in: packetBuffer, length: try builder.finish())
        try send(length)
        let datagram = try receiveOne()
        let plainLength = try inbound.unprotectRTCP(in: datagram, length: datagram.count)
        for packet in try RTCPCompoundPacket(UnsafeRawBufferPointer(rebasing: datagram[..<plainLength])) {
            switch packet {
            case let .senderReport(report):
                reception.recordSenderReport(ntpTimestamp: report.senderInfo.ntpTimestamp, arrival: now)
                if let block = report.reportBlocks.first { monitor.recordRemoteReport(block, arrival: now) }
            case let .extendedReport(report):
                for case let .voipMetrics(block) in report.blocks { monitor.recordRemoteMetrics(VoIPMetrics(block)) }
            default:
                break
            }
        }
        timer.lap(.rtcp)
    }

    /// The once-a-second report: the jitter buffer's figures into the monitor, then its rating.
    private func makeQualityReport(_ timer: inout StageTimer) {
        timer.restart()
        monitor.update(playout: PlayoutFigures(jitterBuffer.statistics))
        blackHole(monitor.makeReport(now: arrival))
        timer.lap(.qualityReport)
    }

    /// The packet buffer less the room SRTP needs for its tag.
    private var room: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: packetBuffer[..<(packetBuffer.count - 64)])
    }

    /// Now on the simulated clock.
    private var arrival: MediaTime {
        MediaTime(nanoseconds: Int64(clockMilliseconds * 1_000_000))
    }

    private func send(_ length: Int) throws {
        guard try sender.send(UnsafeRawBufferPointer(rebasing: packetBuffer[..<length]), to: receiver.localAddress) else {
            throw SessionBenchError("sendto on loopback refused a packet")
        }
    }

    /// The next datagram on the receiving socket (loopback delivers it by the time `sendto`
    /// returns; a few empty receives are allowed for a slow delivery).
    private func receiveOne() throws -> UnsafeMutableRawBufferPointer {
        for _ in 0..<10_000 {
            if try receiver.receive(into: &batch) > 0 { return batch[0].bytes }
        }
        throw SessionBenchError("a packet sent on loopback did not arrive")
    }
}

/// Why the session suite could not measure.
struct SessionBenchError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
