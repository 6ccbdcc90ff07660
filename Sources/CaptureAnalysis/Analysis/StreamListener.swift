import QualityMetrics
import PlayoutLab
import Codecs
import Jitter

/// What a listener behind our jitter buffer heard of one stream: the stream's packets replayed
/// as they arrived (``StreamPlayoutReplay``), scored, and optionally written to a WAV file as
/// the replay goes.
///
/// A final class because the analyzer keeps streams in a dictionary of values and the replay
/// owns a non-copyable buffer; it is used by one analyzer on one thread.
final class StreamListener {
    /// The replay (a constant, so that each packet reaches it without a reference count to
    /// move); finishing it releases its storage and keeps its figures.
    private let replay: StreamPlayoutReplay
    /// The figures, once the replay is finished.
    private var finished: JitterBufferReport?
    private let mediaPayloadType: UInt8
    /// The payload types of the telephone events the replay's buffer plays as tones.
    private let telephoneEventPayloadTypes: [UInt8]
    /// The one of them that takes the events no SDP announced, if the SDP announced none.
    private let unannouncedEventPayloadType: UInt8?
    private var wav: WAVFileWriter?
    private var wavReport: ListenerWAVReport?
    /// The capture time the replay's clock counts from: its first packet's.
    private var originNanoseconds: Int64?
    /// Where the listener's commands lie in the batch its lane is running (``ReplayLanes``):
    /// the run that last grouped them (its stamp) and their group there. Touched only by the
    /// thread running the listener's lane, one batch at a time.
    @exclusivity(unchecked) var laneBatchStamp = 0
    @exclusivity(unchecked) var laneGroup = 0

    /// The payload type the buffer plays as comfort noise (RFC 3551's static CN).
    private static let comfortNoisePayloadType = JitterBufferConfiguration().comfortNoisePayloadType

    /// A listener for a stream of `format` carried in `payloadType`, or `nil` when the stream
    /// is not audio a buffer can replay (its clock rate is unknown, or it is video).
    /// `telephoneEvents`: the RFC 4733 formats announced for the stream's direction, which the
    /// buffer plays as tones as the live receive path does (a format without a clock rate
    /// counts its durations in the stream's). Without any (no SDP was seen, or it announced
    /// none), the events the analysis recognises in the stream
    /// (``RTPPacketSummary/isTelephoneEvent``) are played with durations in the stream's clock
    /// (RFC 4733 §2.3: the events share the audio's timestamps), on a payload type of the
    /// replay's own. `wavPath`: where to write what was heard, if anywhere.
    static func make(
        format: PayloadFormat, payloadType: UInt8, clockRate: UInt32?,
        telephoneEvents: [(payloadType: UInt8, format: PayloadFormat)], wavPath: String?
    ) -> StreamListener? {
        guard let clockRate, clockRate > 0, clockRate <= 48_000 else { return nil }
        let codec = decoder(for: format.encodingName)
        var configuration = JitterBufferConfiguration()
        configuration.telephoneEvents = telephoneEvents.map { event in
            TelephoneEventFormat(payloadType: event.payloadType, clockRate: Int(event.format.clockRate ?? clockRate))
        }
        var unannounced: TelephoneEventFormat?
        if telephoneEvents.isEmpty {
            let eventPayloadType = Self.unannouncedEventPayloadType &+ (payloadType == Self.unannouncedEventPayloadType ? 1 : 0)
            let format = TelephoneEventFormat(payloadType: eventPayloadType, clockRate: Int(clockRate))
            unannounced = format
            configuration.telephoneEvents = [format]
        }
        let replay = StreamPlayoutReplay(
            codec: codec, clockRate: Int(clockRate), configuration: configuration, deliversAudio: wavPath != nil)
        return StreamListener(
            replay: replay, payloadType: payloadType, telephoneEvents: configuration.telephoneEvents,
            unannouncedEventPayloadType: unannounced?.payloadType, encodingName: format.encodingName, wavPath: wavPath)
    }

    /// The payload type the replay's buffer takes unannounced telephone events on (another
    /// when the stream's media uses it): any but the media's and comfort noise's would do.
    private static let unannouncedEventPayloadType: UInt8 = 101

    /// Why a stream gets no listener, for the WAV report: see ``make(format:payloadType:clockRate:telephoneEvents:wavPath:)``.
    static func noReplayReason(format: PayloadFormat?, clockRate: UInt32?) -> String {
        guard let format else { return "no media payload type known" }
        guard let clockRate, clockRate > 0 else { return "\(format.encodingName): clock rate unknown" }
        return "\(format.encodingName) at \(clockRate) Hz is not audio"
    }

    private init(
        replay: StreamPlayoutReplay, payloadType: UInt8, telephoneEvents: [TelephoneEventFormat],
        unannouncedEventPayloadType: UInt8?, encodingName: String, wavPath: String?
    ) {
        self.replay = replay
        mediaPayloadType = payloadType
        telephoneEventPayloadTypes = telephoneEvents.map(\.payloadType)
        self.unannouncedEventPayloadType = unannouncedEventPayloadType
        guard let wavPath else { return }
        guard replay.decodesAudio else {
            wavReport = ListenerWAVReport(path: nil, skippedReason: "\(encodingName) cannot be decoded here")
            return
        }
        do throws(WAVError) {
            wav = try WAVFileWriter(path: wavPath, format: AudioFormat(sampleRate: replay.format.sampleRate, channels: 1))
            wavReport = ListenerWAVReport(path: wavPath, skippedReason: nil)
        } catch {
            wavReport = ListenerWAVReport(path: nil, skippedReason: error.description)
        }
    }

    /// The decoder for `encodingName` (mono), `nil` for a codec the project cannot decode.
    private static func decoder(for encodingName: String) -> (any AudioDecoder)? {
        switch encodingName.uppercased() {
        case "PCMU": G711Decoder(law: .muLaw)
        case "PCMA": G711Decoder(law: .aLaw)
        case "OPUS": try? OpusDecoder(format: AudioFormat(sampleRate: 48_000, channels: 1))
        default: nil
        }
    }

    /// Takes the stream's next packet; `payload` is `nil` when the capture could not read it.
    /// Ignored once the replay is finished (the replay ignores it).
    func receive(_ packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?) {
        let origin = originNanoseconds ?? packet.arrivalNanoseconds
        originNanoseconds = origin
        let arrival = Double(packet.arrivalNanoseconds &- origin) / 1e6
        let wav = wav
        if packet.payloadType == mediaPayloadType || packet.payloadType == Self.comfortNoisePayloadType {
            replay.receive(
                sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, marker: packet.marker,
                payloadType: packet.payloadType, payload: packet.payloadIsReadable ? payload : nil,
                arrivalMilliseconds: arrival
            ) { wav?.write($0) }
        } else if packet.isTelephoneEvent, packet.payloadIsReadable, let payload, let payloadType = eventPayloadType(of: packet) {
            replay.receiveTelephoneEvent(
                sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, marker: packet.marker,
                payloadType: payloadType, payload: payload, arrivalMilliseconds: arrival
            ) { wav?.write($0) }
        } else {
            replay.skip(sequenceNumber: packet.sequenceNumber, arrivalMilliseconds: arrival) { wav?.write($0) }
        }
    }

    /// The payload type a telephone event goes to the buffer on: its own when announced, else
    /// the one for unannounced events (`nil` when the SDP announced others: not played).
    private func eventPayloadType(of packet: RTPPacketSummary) -> UInt8? {
        telephoneEventPayloadTypes.contains(packet.payloadType) ? packet.payloadType : unannouncedEventPayloadType
    }

    /// Finishes the replay (and the WAV file) on the first call, releasing its storage, and
    /// returns the figures and what became of the WAV file; later calls return the same.
    @discardableResult
    func finish() -> (JitterBufferReport, ListenerWAVReport?) {
        if let finished { return (finished, wavReport) }
        let wav = wav
        replay.finish { wav?.write($0) }
        if let wav {
            do throws(WAVError) {
                try wav.finish()
            } catch {
                wavReport = ListenerWAVReport(path: wav.path, skippedReason: error.description)
            }
            self.wav = nil
        }
        let finished = JitterBufferReport(
            replay.score, audioDecoded: replay.decodesAudio,
            toneMilliseconds: Double(replay.toneSamples) * 1000 / Double(max(replay.format.sampleRate, 1)))
        self.finished = finished
        return (finished, wavReport)
    }
}
