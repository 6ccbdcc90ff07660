import Foundation
import Jitter
import PlayoutLab
import MediaSession
import RTP

/// `count` two-way PCMU + SRTP calls on loopback: pairs of ``MediaSession``s set up as the
/// ``SessionBenchProfile`` says (RTCP on its RFC 3550 schedule), negotiated through SDP text,
/// each capturing ``TalkerSignal`` from a ``MemoryAudioEndpoint`` in real time. Softphone: each
/// session ticked by its own audio thread, all received by one shared ``UDPEventLoop``.
/// Server: every session received and ticked by one of a ``MediaRuntime``'s I/O threads.
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
    private let threads: Threads

    /// The threads the sessions run on besides their own.
    private enum Threads {
        case sharedEventLoop(UDPEventLoop)
        case runtime(MediaRuntime)

        func makeSession(_ configuration: MediaSessionConfiguration) throws -> MediaSession {
            switch self {
            case let .sharedEventLoop(eventLoop): try MediaSession(configuration: configuration, eventLoop: eventLoop)
            case let .runtime(runtime): try MediaSession(configuration: configuration, runtime: runtime)
            }
        }

        func shutdown() {
            switch self {
            case let .sharedEventLoop(eventLoop): eventLoop.shutdown()
            case let .runtime(runtime): runtime.shutdown()
            }
        }
    }

    /// Sets up and starts the calls; their microphones talk for `seconds`, then are silent.
    init(count: Int, profile: SessionBenchProfile, seconds: Int) throws {
        let threads: Threads = profile == .server ? .runtime(try MediaRuntime()) : .sharedEventLoop(try UDPEventLoop())
        let source = TalkerSignal.samples(sampleRate: 8000, seconds: seconds)
        func configuration() -> MediaSessionConfiguration {
            profile.configuration(
                audio: .endpoint(MemoryAudioEndpoint(source: source, recordingCapacitySamples: 0)),
                jitterFloorMilliseconds: Self.jitterDelayFloorMilliseconds
            )
        }
        var sessions: [MediaSession] = []
        do {
            for _ in 0..<count {
                let caller = try threads.makeSession(configuration())
                let callee = try threads.makeSession(configuration())
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
            threads.shutdown()
            throw error
        }
        self.sessions = sessions
        self.threads = threads
    }

    /// The real-time failure counters summed over every session, as they stand.
    var counters: RealTimeCounters {
        sessions.reduce(into: RealTimeCounters()) { total, session in total.add(session) }
    }

    /// The jitter buffers' playout delay now, averaged over the sessions, in milliseconds.
    var meanPlayoutDelayMilliseconds: Double {
        sessions.reduce(0) { $0 + $1.playoutStatistics.currentDelayMilliseconds } / Double(max(sessions.count, 1))
    }

    /// Hangs up every call and stops the shared threads.
    func stop() {
        Self.stop(sessions)
        threads.shutdown()
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
}
