import Foundation
import Jitter
import PlayoutLab
import MediaSession
import RTP

/// `count` two-way PCMU + SRTP calls on loopback: pairs of ``MediaSession``s with the session
/// defaults a softphone gets (echo cancelling and denoising on, RTCP on its RFC 3550 schedule),
/// negotiated through SDP text, each capturing ``TalkerSignal`` from a ``MemoryAudioEndpoint``
/// paced by its own audio thread in real time, all received by one shared ``UDPEventLoop``.
///
/// One setting differs from the defaults: the jitter buffers start at, and never go below,
/// ``jitterDelayFloorMilliseconds`` (the default starts at 250 ms and may settle within a
/// millisecond of the arrivals on a clean loopback). So every step is judged at the same
/// slack from its first second: a packet is concealed only when a thread ran about two 10 ms
/// periods late, the same slack a late audio tick is allowed, and a sender woken a
/// millisecond late (another process's turn on the core) is not a failure.
final class LoopbackCalls {
    /// The jitter buffers' first and least delay above the fastest packet: two audio periods.
    static let jitterDelayFloorMilliseconds = 20.0

    /// Every session, caller then callee, call by call.
    let sessions: [MediaSession]
    private let eventLoop: UDPEventLoop

    /// Sets up and starts the calls; their microphones talk for `seconds`, then are silent.
    init(count: Int, suite: SRTPCryptoSuite, seconds: Int) throws {
        let eventLoop = try UDPEventLoop()
        let source = TalkerSignal.samples(sampleRate: 8000, seconds: seconds)
        var sessions: [MediaSession] = []
        do {
            for _ in 0..<count {
                let caller = try MediaSession(configuration: Self.configuration(source: source, suite: suite), eventLoop: eventLoop)
                let callee = try MediaSession(configuration: Self.configuration(source: source, suite: suite), eventLoop: eventLoop)
                sessions += [caller, callee]
                let offer = try SessionDescription(parsing: MediaNegotiation.offer(caller.localCapabilities).text)
                let (answer, calleeMedia) = try MediaNegotiation.answer(to: offer, with: callee.localCapabilities)
                let callerMedia = try MediaNegotiation.apply(
                    answer: SessionDescription(parsing: answer.text), toOfferFrom: caller.localCapabilities
                )
                try callee.start(negotiated: calleeMedia)
                try caller.start(negotiated: callerMedia)
            }
        } catch {
            Self.stop(sessions)
            eventLoop.shutdown()
            throw error
        }
        self.sessions = sessions
        self.eventLoop = eventLoop
    }

    /// The real-time failure counters summed over every session, as they stand.
    var counters: RealTimeCounters {
        sessions.reduce(into: RealTimeCounters()) { total, session in total.add(session) }
    }

    /// The jitter buffers' playout delay now, averaged over the sessions, in milliseconds.
    var meanPlayoutDelayMilliseconds: Double {
        sessions.reduce(0) { $0 + $1.playoutStatistics.currentDelayMilliseconds } / Double(max(sessions.count, 1))
    }

    /// Hangs up every call and stops the I/O thread.
    func stop() {
        Self.stop(sessions)
        eventLoop.shutdown()
    }

    /// Stops `sessions` from a few threads at once: each stop waits up to one 10 ms tick for
    /// its audio thread, which one by one would add seconds to a run of hundreds.
    private static func stop(_ sessions: [MediaSession]) {
        let stoppers = min(16, sessions.count)
        let done = DispatchGroup()
        for first in 0..<stoppers {
            done.enter()
            Thread {
                for index in stride(from: first, to: sessions.count, by: stoppers) { sessions[index].stop() }
                done.leave()
            }.start()
        }
        done.wait()
    }

    private static func configuration(source: [Int16], suite: SRTPCryptoSuite) -> MediaSessionConfiguration {
        var jitterBuffer = JitterBufferConfiguration()
        jitterBuffer.initialDelayMilliseconds = jitterDelayFloorMilliseconds
        jitterBuffer.minimumDelayMilliseconds = jitterDelayFloorMilliseconds
        return MediaSessionConfiguration(
            localAddress: .loopbackIPv4(), codecs: [.pcmu], srtpSuites: [suite], jitterBuffer: jitterBuffer,
            audio: .endpoint(MemoryAudioEndpoint(source: source, recordingCapacitySamples: 0))
        )
    }
}
