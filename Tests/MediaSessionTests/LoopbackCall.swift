import Foundation
import MediaSession
import RTP
import Testing

/// Every test that runs a call in real time, one at a time: each call runs two threads per
/// session, and the machine may have only two cores.
@Suite(.serialized) enum LiveCalls {}

/// Two sessions on loopback that negotiated through SDP text (offer, answer, apply), each
/// with in-memory audio: the caller captures `source`, both record what they play.
final class LoopbackCall {
    let caller: MediaSession
    let callee: MediaSession
    let callerAudio: MemoryAudioEndpoint
    let calleeAudio: MemoryAudioEndpoint
    let callerMedia: NegotiatedAudio
    let calleeMedia: NegotiatedAudio
    let callerEvents: EventRecorder
    let calleeEvents: EventRecorder
    let source: [Int16]

    /// Sets up and starts the call. `sampleRate` must be the codec's PCM rate (8000 for
    /// G.711, 48 000 for Opus); the source is `sourceSeconds` of ``TestSignal/speechLike``.
    /// With `runtime`, both sessions are legs on it (the callee on `calleeRuntime` when given);
    /// without, each has its own threads.
    init(
        codecs: [SDPCodec], sampleRate: Int, sourceSeconds: Double = 1.2, srtp: [SRTPCryptoSuite] = [], runtime: MediaRuntime? = nil,
        calleeRuntime: MediaRuntime? = nil,
        adjust: (inout MediaSessionConfiguration) -> Void = { _ in }, adjustCallee: (inout MediaSessionConfiguration) -> Void = { _ in },
        adjustCalleeMedia: (inout NegotiatedAudio) -> Void = { _ in },
        rewriteAnswer: (String) -> String = { $0 }
    ) throws {
        source = TestSignal.speechLike(sampleRate: sampleRate, seconds: sourceSeconds)
        let recordingCapacity = sampleRate * 10
        callerAudio = MemoryAudioEndpoint(source: source, recordingCapacitySamples: recordingCapacity)
        calleeAudio = MemoryAudioEndpoint(source: [], recordingCapacitySamples: recordingCapacity)
        func configuration(_ audio: MemoryAudioEndpoint) -> MediaSessionConfiguration {
            var configuration = MediaSessionConfiguration(
                localAddress: .loopbackIPv4(), codecs: codecs, srtpSuites: srtp, echoCancellation: false, noiseSuppression: false, audio: .endpoint(audio),
                rtcpMinimumIntervalSeconds: 0.5
            )
            adjust(&configuration)
            return configuration
        }
        var calleeConfiguration = configuration(calleeAudio)
        adjustCallee(&calleeConfiguration)
        if let runtime {
            caller = try MediaSession(configuration: configuration(callerAudio), runtime: runtime)
            callee = try MediaSession(configuration: calleeConfiguration, runtime: calleeRuntime ?? runtime)
        } else {
            caller = try MediaSession(configuration: configuration(callerAudio))
            callee = try MediaSession(configuration: calleeConfiguration)
        }
        // Through SDP text both ways, as a SIP layer would carry it.
        let offer = try SessionDescription(parsing: MediaNegotiation.offer(caller.localCapabilities).text)
        var (answer, calleeMedia) = try MediaNegotiation.answer(to: offer, with: callee.localCapabilities)
        adjustCalleeMedia(&calleeMedia)
        callerMedia = try MediaNegotiation.apply(
            answer: SessionDescription(parsing: rewriteAnswer(answer.text)), toOfferFrom: caller.localCapabilities
        )
        self.calleeMedia = calleeMedia
        callerEvents = EventRecorder(caller.events)
        calleeEvents = EventRecorder(callee.events)
        try callee.start(negotiated: calleeMedia)
        try caller.start(negotiated: callerMedia)
    }

    func stop() {
        caller.stop()
        callee.stop()
    }
}

/// A session's events as they come.
typealias EventRecorder = StreamRecorder<MediaSessionEvent>

/// Collects what an `AsyncStream` delivers, for tests to look at.
final class StreamRecorder<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `recorded` is only touched under `lock`.
    private let lock = NSLock()
    private var recorded: [Element] = []

    init(_ stream: AsyncStream<Element>) {
        // Off the cooperative pool: the live tests wait by blocking their thread, and with two
        // cores two such waits would otherwise leave no thread to drain the stream.
        Task(executorPreference: RecorderExecutor.shared) { [self] in
            for await event in stream {
                lock.withLock { recorded.append(event) }
            }
        }
    }

    var events: [Element] {
        lock.withLock { recorded }
    }
}

/// Runs the recorders' tasks on a Dispatch queue of their own rather than the cooperative pool.
final class RecorderExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state, and Dispatch queues are thread-safe.
    static let shared = RecorderExecutor()
    private let queue = DispatchQueue(label: "test-stream-recorders")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `seconds`; returns whether it held.
@discardableResult
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

enum TestSignal {
    /// A non-periodic, speech-like test signal: tones at incommensurate frequencies under a
    /// slow syllabic envelope, about −18 dBov, starting at full level so its onset is sharp.
    static func speechLike(sampleRate: Int, seconds: Double) -> [Int16] {
        let count = Int(Double(sampleRate) * seconds)
        let tones: [(frequency: Double, amplitude: Double)] = [(211, 2600), (523.3, 2200), (1187.7, 1500), (2311.1, 700)]
        return (0..<count).map { index in
            let time = Double(index) / Double(sampleRate)
            let envelope = 0.6 + 0.4 * cos(2 * Double.pi * 3.1 * time)
            let value = tones.reduce(0.0) { sum, tone in sum + tone.amplitude * sin(2 * Double.pi * tone.frequency * time + tone.frequency) }
            return Int16(envelope * value)
        }
    }

    /// The highest normalised cross-correlation between `window` seconds of `sent`, starting
    /// `offset` seconds after its onset, and `received` at lags within ±`searchMilliseconds`
    /// of where the onsets line up. 1 is identical up to gain.
    ///
    /// The defaults leave the buffer its start: it plays the first packets at its 30 ms start
    /// delay and sheds what the network does not need by time-stretching in the first half
    /// second (seen: 12–27 ms removed; a seam inside a window at 0.3 s brought a clean call to
    /// 0.895), so the window begins at 0.6 s and the lags span the start delay and a period.
    static func correlation(
        sent: [Int16], received: [Int16], sampleRate: Int, offset: Double = 0.6, window: Double = 0.25, searchMilliseconds: Int = 40
    ) -> Double {
        guard let sentOnset = onset(sent), let receivedOnset = onset(received) else { return 0 }
        let start = sentOnset + Int(offset * Double(sampleRate))
        let length = Int(window * Double(sampleRate))
        let search = sampleRate * searchMilliseconds / 1000
        guard start + length <= sent.count else { return 0 }
        var best = 0.0
        for lag in (receivedOnset - sentOnset - search)...(receivedOnset - sentOnset + search) {
            let receivedStart = start + lag
            guard receivedStart >= 0, receivedStart + length <= received.count else { continue }
            var product = 0.0, sentEnergy = 0.0, receivedEnergy = 0.0
            for index in 0..<length {
                let a = Double(sent[start + index]), b = Double(received[receivedStart + index])
                product += a * b
                sentEnergy += a * a
                receivedEnergy += b * b
            }
            guard sentEnergy > 0, receivedEnergy > 0 else { continue }
            best = max(best, product / (sentEnergy * receivedEnergy).squareRoot())
        }
        return best
    }

    /// The first sample louder than a quarter of the signal's peak.
    static func onset(_ samples: [Int16]) -> Int? {
        guard let peak = samples.map({ abs(Int($0)) }).max(), peak > 0 else { return nil }
        return samples.firstIndex { abs(Int($0)) > peak / 4 }
    }
}
