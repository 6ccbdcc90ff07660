import QualityMetrics
import PlayoutLab
import Capture
import RTP

/// Computes per-stream call-quality metrics from a packet capture in one pass and constant
/// memory: per-stream accumulators and a bounded timeline, never the packets themselves.
///
/// For every UDP datagram, in capture order:
/// 1. **SIP** (port 5060, or a payload starting with a SIP request or status line): the SDP
///    body's `c=`, `m=`, `a=rtpmap` and `a=crypto` lines are learned
///    (``SessionDescriptionScanner``); RTP to or from an announced endpoint is a stream from its
///    first packet, with the announced encodings and clock rates.
/// 2. **RTCP** (RFC 5761 second-byte range, a compound that validates, on an odd port or on an
///    endpoint of a known stream): sender reports, report blocks and round trips per SSRC.
/// 3. **RTP** elsewhere: a valid RTP header first, then the heuristic of `StreamCandidates`
///    (plausible payload type, several packets in sequence on one 5-tuple and SSRC).
/// 4. Everything else is counted, never reported as a stream.
///
/// Each audio stream is also replayed through our jitter buffer as its packets arrive
/// (``StreamReport/jitterBuffer``, optionally written to WAV files): buffers live while their
/// stream does, and a stream silent for `idleStreamNanoseconds` of capture time is finished.
/// Its RFC 4733 telephone events go to the buffer too, as on the live receive path, which
/// plays digits sent in place of audio as their tones (``JitterBufferReport/toneMilliseconds``):
/// the formats are the direction's `telephone-event` rtpmaps, or without any, the events
/// recognised in the stream (``StreamReport/dtmfEvents``) with durations on the stream's clock.
///
/// SRTP streams are analysed from their clear-text headers, as tshark does; with a key (given in
/// ``Configuration/srtpKeys`` or announced in SDP) each packet is also authenticated and
/// decrypted, and the stream's report says how many passed (``SRTPReport``). The key of a
/// direction follows the offer/answer: the sender's own `a=crypto` line whose tag the answer
/// accepted; a sender that announced none sends plain RTP. SRTCP is decrypted with the key of
/// its sender's SRTP (a session of its own), and its failures are counted apart
/// (``DatagramCounts/srtcpFailures``).
///
/// ```swift
/// let report = CaptureAnalyzer.analyzeFile(atPath: "call.pcap")
/// for stream in report.streams { print(stream.key, stream.lost, stream.jitterMilliseconds ?? 0) }
/// ```
public struct CaptureAnalyzer {
    /// The analyzer's knobs.
    public struct Configuration: Sendable {
        /// Packets in sequence before a flow no SDP announced counts as an RTP stream (3).
        public var confirmationPackets = 3
        /// The most unconfirmed flows tracked at once (4096).
        public var maximumCandidates = 4096
        /// The most timeline intervals kept per stream (600; longer streams get coarser intervals).
        public var timelineCapacity = 600
        /// Where codec impairments (Ie, Bpl) for the E-model come from.
        public var codecTable = CodecImpairmentTable.standard
        /// SRTP keys to decrypt streams with, before any learned from SDP `a=crypto` lines: a
        /// key for the stream's SSRC first, then one for every stream. A flow whose first packet
        /// authenticates under such a key is a stream at once, without the heuristic's wait.
        public var srtpKeys: [SRTPKeyAssignment] = []
        /// The one-way network delay of the path, in milliseconds, for captures without RTCP
        /// (`nil`: half the RTCP path round trip, or 0 without one).
        public var oneWayDelayMilliseconds: Double?
        /// Whether each audio stream is replayed through our jitter buffer as its packets
        /// arrive, for ``StreamReport/jitterBuffer`` (true). The replay costs most of the
        /// analysis time; turning it off also turns off ``wavDirectory``.
        public var replaysJitterBuffer = true
        /// Worker threads the jitter-buffer replays run on while the capture is read (0: on the
        /// reading thread alone); with workers, the reading thread runs replays too whenever
        /// it is ahead of them. Each stream is replayed one packet at a time, in capture order,
        /// so the reports are the same whatever the number (0).
        public var replayWorkers = 0
        /// A folder to write what a listener behind our jitter buffer heard into, one WAV file
        /// per decodable stream (`nil`: none). The folder must exist.
        public var wavDirectory: String?

        /// The defaults.
        public init() {}
    }

    /// The well-known SIP port.
    public static let sipPort: UInt16 = 5060

    private let configuration: Configuration
    private let listening: ListeningOptions?
    private var directory = PayloadFormatDirectory()
    private var streams: [RTPStreamKey: StreamAnalysis] = [:]
    private var streamIndexes = StreamIndexCache()
    private var decryptions: [RTPStreamKey: StreamDecryption] = [:]
    /// The SRTCP sessions by flow; `nil` for a flow without a key (plain RTCP).
    private var controlDecryptions: [UDPFlow: StreamDecryption?] = [:]
    private var streamEndpoints: Set<UDPEndpoint> = []
    private var candidates: StreamCandidates
    private var rtcp = RTCPObservations()
    private var counts = DatagramCounts()
    /// The capture time of the last sweep for idle streams.
    private var lastIdleSweepNanoseconds: Int64?

    /// A stream silent for this long in capture time is taken as ended: its jitter-buffer
    /// replay is finished and its storage released, so that a long capture of many calls in
    /// turn holds the buffers of the calls in progress only.
    static let idleStreamNanoseconds: Int64 = 120_000_000_000

    /// An analyzer that has seen nothing; `captureName` starts the names of its WAV files.
    public init(configuration: Configuration = Configuration(), captureName: String = "capture") {
        self.configuration = configuration
        listening =
            configuration.replaysJitterBuffer
            ? ListeningOptions(
                wavDirectory: configuration.wavDirectory, captureStem: captureName,
                lanes: configuration.replayWorkers > 0 ? ReplayLanes(workers: configuration.replayWorkers) : nil) : nil
        candidates = StreamCandidates(
            confirmationPackets: configuration.confirmationPackets, capacity: configuration.maximumCandidates)
    }

    /// Analyses the capture at `path` to its end. Never throws: a file that cannot be opened,
    /// or is damaged part way, gives a report whose ``CaptureFileReport/error`` says so and which
    /// holds everything found before the damage.
    public static func analyzeFile(
        atPath path: String, configuration: Configuration = Configuration()
    ) -> CaptureFileReport {
        var analyzer = CaptureAnalyzer(configuration: configuration, captureName: ListeningOptions.stem(ofPath: path))
        var statistics = CaptureStatistics()
        var failure: CaptureError?
        var framesRead = 0
        do throws(CaptureError) {
            var reader = try CaptureReader(path: path)
            defer { framesRead = reader.framesRead }
            do throws(CaptureError) {
                try reader.forEachUDPDatagram(counting: &statistics) { analyzer.analyze($0) }
            } catch {
                failure = error
            }
        } catch {
            failure = error
        }
        var report = analyzer.report(path: path)
        report.error = failure?.description
        report.framesRead = framesRead
        report.captureStatistics = statistics.description
        return report
    }

    /// Takes in the capture's next UDP datagram.
    public mutating func analyze(_ datagram: UDPDatagram) {
        finishIdleStreams(at: datagram.timestamp.nanosecondsSinceEpoch)
        let payload = datagram.payload
        if isSIPCandidate(datagram), SessionDescriptionScanner.isSIPMessage(payload) {
            counts.sip += 1
            let callID = SIPCallIdentifier.callID(inSIPMessage: payload)
            for media in SessionDescriptionScanner.announcedMedia(inSIPMessage: payload) {
                directory.learn(media, callID: callID)
                counts.sdpMedia += 1
            }
            return
        }
        switch DatagramClassifier.classify(payload) {
        case .rtcp:
            analyzeRTCP(datagram)
        case .rtp:
            analyzeRTP(datagram)
        default:
            counts.other += 1
        }
    }

    /// The report of everything analysed so far, streams ordered by their first packet. The
    /// first report finishes the jitter-buffer replays (and closes their WAV files): packets
    /// analysed after it are not replayed.
    public func report(path: String) -> CaptureFileReport {
        listening?.lanes?.drain()
        var report = CaptureFileReport(path: path)
        var counts = counts
        counts.unconfirmedRTP = candidates.abandonedPackets + candidates.waitingPackets
        report.datagrams = counts
        let estimator = QualityEstimator(table: configuration.codecTable)
        let roundTrips = PathRoundTrips(streamKeys: Array(streams.keys), rtcp: rtcp.sources)
        report.streams = streams.values
            .sorted { ($0.firstFrame, $0.key) < ($1.firstFrame, $1.key) }
            .map { stream in
                let announced = directory.announcedKey(from: stream.key.source, to: stream.key.destination)
                let decryption = decryptions[stream.key]?.report
                var builder = StreamReportBuilder(
                    stream: stream, rtcp: rtcp.sources[stream.key.ssrc], roundTrip: roundTrips.roundTrip(of: stream.key),
                    oneWayDelayMilliseconds: configuration.oneWayDelayMilliseconds, estimator: estimator,
                    srtpSuite: decryption?.suite ?? announced?.suite.sdesName, srtp: decryption,
                    callID: directory.callID(from: stream.key.source, to: stream.key.destination))
                return builder.build()
            }
        return report
    }

    /// Every so often (a tenth of `idleStreamNanoseconds` of capture time), finishes the
    /// replays of the streams silent for `idleStreamNanoseconds`.
    private mutating func finishIdleStreams(at now: Int64) {
        guard listening != nil else { return }
        guard let last = lastIdleSweepNanoseconds else {
            lastIdleSweepNanoseconds = now
            return
        }
        guard now &- last >= Self.idleStreamNanoseconds / 10 else { return }
        lastIdleSweepNanoseconds = now
        for stream in streams.values where now &- stream.lastArrivalNanoseconds >= Self.idleStreamNanoseconds {
            stream.finishListening()
        }
    }

    private func isSIPCandidate(_ datagram: UDPDatagram) -> Bool {
        if datagram.source.port == Self.sipPort || datagram.destination.port == Self.sipPort { return true }
        guard let first = datagram.payload.first else { return false }
        return (0x41...0x5A).contains(first)
    }

    private mutating func analyzeRTCP(_ datagram: UDPDatagram) {
        let oddPort = datagram.source.port & 1 == 1 || datagram.destination.port & 1 == 1
        let multiplexed =
            streamEndpoints.contains(datagram.source) || streamEndpoints.contains(datagram.destination)
            || directory.isAnnounced(datagram.source) || directory.isAnnounced(datagram.destination)
        guard oddPort || multiplexed else {
            counts.other += 1
            return
        }
        let arrival = datagram.timestamp.nanosecondsSinceEpoch
        if let decryption = controlDecryption(for: datagram) {
            if let plaintext = decryption.unprotect(datagram.payload), let compound = try? RTCPCompoundPacket(plaintext) {
                counts.rtcp += 1
                counts.srtcp += 1
                rtcp.record(compound, arrivalNanoseconds: arrival)
                return
            }
            // A sender with a key may still send its RTCP in the clear (RFC 3711 allows
            // unencrypted SRTCP only with a tag, but some peers do neither).
            guard let compound = try? RTCPCompoundPacket(datagram.payload) else {
                counts.srtcpFailures += 1
                return
            }
            counts.rtcp += 1
            rtcp.record(compound, arrivalNanoseconds: arrival)
            return
        }
        guard let compound = try? RTCPCompoundPacket(datagram.payload) else {
            counts.other += 1
            return
        }
        counts.rtcp += 1
        rtcp.record(compound, arrivalNanoseconds: arrival)
    }

    /// The SRTCP session of the datagram's flow, made at its first packet: the key given for the
    /// sender's SSRC (clear in SRTCP), else the sender's SDP key; `nil` without either.
    private mutating func controlDecryption(for datagram: UDPDatagram) -> StreamDecryption? {
        let flow = UDPFlow(source: datagram.source, destination: datagram.destination)
        if let known = controlDecryptions[flow] { return known }
        let payload = datagram.payload
        var made: StreamDecryption?
        if payload.count >= 8 {
            let ssrc = payload.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian
            if let given = givenKey(for: ssrc) {
                made = try? StreamDecryption(key: given, keySource: .given, isControl: true)
            }
        }
        if made == nil, let announced = directory.announcedRTCPKey(from: flow.source, to: flow.destination) {
            made = try? StreamDecryption(key: announced.masterKey, keySource: .sdp, isControl: true)
        }
        // Remembered only once a key exists or SDP was seen, so that RTCP before the SDP that
        // keys it is not stuck in the clear.
        if made != nil || directory.isAnnounced(flow.source) || directory.isAnnounced(flow.destination) {
            controlDecryptions[flow] = made
        }
        return made
    }

    private mutating func analyzeRTP(_ datagram: UDPDatagram) {
        guard let packet = try? RTPPacket(datagram.payload) else {
            counts.other += 1
            return
        }
        let key = RTPStreamKey(source: datagram.source, destination: datagram.destination, ssrc: packet.ssrc)
        if let index = streamIndex(of: key) {
            record(packet, in: datagram, decryption: decryptions.isEmpty ? nil : decryptions[key], at: index)
        } else if directory.isAnnounced(datagram.source) || directory.isAnnounced(datagram.destination) {
            let index = startStream(key, foundBy: .sdp, firstFrame: datagram.frameNumber)
            decryptions[key] = announcedStreamDecryption(for: key)
            record(packet, in: datagram, decryption: decryptions[key], at: index)
        } else if let given = givenKey(for: key.ssrc), let decryption = try? StreamDecryption(key: given, keySource: .given),
            let plaintext = decryption.unprotect(datagram.payload), let decrypted = try? RTPPacket(plaintext)
        {
            decryptions[key] = decryption
            let summary = RTPPacketSummary(
                decrypted, frameNumber: datagram.frameNumber, arrivalNanoseconds: datagram.timestamp.nanosecondsSinceEpoch)
            record(summary, payload: decrypted.payload, at: startStream(key, foundBy: .srtpKey, firstFrame: datagram.frameNumber))
        } else if let confirmed = candidates.offer(
            RTPPacketSummary(packet, frameNumber: datagram.frameNumber, arrivalNanoseconds: datagram.timestamp.nanosecondsSinceEpoch),
            for: key), let first = confirmed.first
        {
            let index = startStream(key, foundBy: .heuristic, firstFrame: first.frameNumber)
            // Only the last packet's payload is still here (and readable without a key): the
            // earlier ones play as silence. Under a given key that the first packet failed,
            // none is readable.
            let encrypted = givenKey(for: key.ssrc) != nil
            for (position, var summary) in confirmed.enumerated() {
                summary.payloadIsReadable = !encrypted
                record(summary, payload: position == confirmed.count - 1 && !encrypted ? packet.payload : nil, at: index)
            }
            // A given key under which the first packet did not authenticate: later packets
            // are still tried, so that the report shows the failures.
            if let given = givenKey(for: key.ssrc) {
                decryptions[key] = try? StreamDecryption(key: given, keySource: .given)
            }
        }
    }

    /// Records `packet` in the stream at `index`; for an encrypted stream its payload is read
    /// from the decrypted copy, and not at all when it does not authenticate (its telephone
    /// events would be noise, its audio garbage).
    private mutating func record(
        _ packet: RTPPacket, in datagram: UDPDatagram, decryption: StreamDecryption?,
        at index: Dictionary<RTPStreamKey, StreamAnalysis>.Index
    ) {
        let arrival = datagram.timestamp.nanosecondsSinceEpoch
        guard let decryption else {
            record(
                RTPPacketSummary(packet, frameNumber: datagram.frameNumber, arrivalNanoseconds: arrival),
                payload: packet.payload, at: index)
            return
        }
        if let plaintext = decryption.unprotect(datagram.payload), let decrypted = try? RTPPacket(plaintext) {
            record(
                RTPPacketSummary(decrypted, frameNumber: datagram.frameNumber, arrivalNanoseconds: arrival),
                payload: decrypted.payload, at: index)
            return
        }
        var summary = RTPPacketSummary(packet, frameNumber: datagram.frameNumber, arrivalNanoseconds: arrival)
        summary.payloadIsReadable = false
        record(summary, payload: nil, at: index)
    }

    /// The decryption of an SDP-announced stream: with the key given for it, else the key its
    /// sender announced; `nil` without either.
    private func announcedStreamDecryption(for key: RTPStreamKey) -> StreamDecryption? {
        if let given = givenKey(for: key.ssrc) {
            return try? StreamDecryption(key: given, keySource: .given)
        }
        guard let announced = directory.announcedKey(from: key.source, to: key.destination) else { return nil }
        return try? StreamDecryption(key: announced.masterKey, keySource: .sdp)
    }

    /// The key given for `ssrc`, else the one given for every stream.
    private func givenKey(for ssrc: UInt32) -> SRTPMasterKey? {
        (configuration.srtpKeys.first { $0.ssrc == ssrc } ?? configuration.srtpKeys.first { $0.ssrc == nil })?.key
    }

    private mutating func startStream(
        _ key: RTPStreamKey, foundBy: StreamDiscovery, firstFrame: Int
    ) -> Dictionary<RTPStreamKey, StreamAnalysis>.Index {
        streamEndpoints.insert(key.source)
        streamEndpoints.insert(key.destination)
        streamIndexes.removeAll()
        streams[key] = StreamAnalysis(
            key: key, foundBy: foundBy, firstFrame: firstFrame, timelineCapacity: configuration.timelineCapacity,
            listening: listening)
        return streams.index(forKey: key) ?? streams.startIndex
    }

    /// Where the stream of `key` is, from the cache when it is there.
    private mutating func streamIndex(of key: RTPStreamKey) -> Dictionary<RTPStreamKey, StreamAnalysis>.Index? {
        if let index = streamIndexes.index(of: key) { return index }
        guard let index = streams.index(forKey: key) else { return nil }
        streamIndexes.remember(index, for: key)
        return index
    }

    /// Records a packet of the stream at `index`, which resolves its payload type through the
    /// directory only when it changed (the stream is updated in place: no copy per packet).
    private mutating func record(
        _ packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?, at index: Dictionary<RTPStreamKey, StreamAnalysis>.Index
    ) {
        streams.values[index].record(packet, payload: payload, formats: directory)
        counts.rtp += 1
    }
}

/// The sender's and receiver's endpoints of a UDP flow.
struct UDPFlow: Hashable {
    var source: UDPEndpoint
    var destination: UDPEndpoint
}
