import BenchmarkHarness
import Foundation
import Locking
import MediaSession
import RTP
import Testing
import TestSupport

extension LiveCalls {
    /// What a server leg's I/O thread allocates once the call is warm, beat by beat: receiving
    /// and ticking (pull, capture, encode, protect, send) allocate nothing per packet or tick.
    @Suite struct ServerLegAllocationTests {
        /// The system clock, which also notes, each time an I/O thread sleeps between two looks
        /// at its sockets, how many allocations that thread made since its previous sleep.
        private final class AllocationWatchingClock: MonotonicClock {
            struct Tally {
                /// Each thread seen, with its allocation count after its last sleep began.
                var threads: [(thread: pthread_t, baseline: UInt64)] = []
                var armed = false
                /// While armed: beats (one look at the sockets and the due ticks), allocations, and
                /// the beats that allocated at all.
                var beats = 0
                var allocations: UInt64 = 0
                var allocatingBeats = 0
            }

            private let system = SystemMonotonicClock()
            private let tally = PThreadLock(Tally())

            func nanoseconds() -> Int64 {
                system.nanoseconds()
            }

            func sleep(untilNanoseconds deadline: Int64) {
                let count = AllocationCounter.currentThread
                let thread = pthread_self()
                tally.withLock { tally in
                    guard let index = tally.threads.firstIndex(where: { pthread_equal($0.thread, thread) != 0 }) else {
                        tally.threads.append((thread, 0))
                        tally.threads[tally.threads.count - 1].baseline = AllocationCounter.currentThread
                        return
                    }
                    let made = count &- tally.threads[index].baseline
                    if tally.armed {
                        tally.beats += 1
                        tally.allocations += made
                        if made > 0 { tally.allocatingBeats += 1 }
                    }
                    // What the tally itself allocated is not the thread's work.
                    tally.threads[index].baseline = AllocationCounter.currentThread
                }
                system.sleep(untilNanoseconds: deadline)
            }

            /// Counts from now on.
            func arm() {
                tally.withLock { $0.armed = true }
            }

            /// Stops counting and returns the tally.
            func disarm() -> Tally {
                tally.withLock { tally in
                    tally.armed = false
                    return tally
                }
            }
        }

        /// Two SRTP server legs on a runtime of one I/O thread, talking for 3 s after 1.5 s of
        /// warm-up. Once a second each leg rates the call and publishes a quality report, and
        /// now and then sends RTCP: those beats may allocate (at most 10 in 3 s: 2 legs × 3
        /// reports, and RTCP at the 5 s minimum interval). A packet or tick that allocated
        /// would show in most of the beats (each leg sends and receives 50 packets a second and
        /// ticks 50 times, 20 ms each), so the bound fails at once.
        @Test(.countsAllocations) func serverLegsAllocateNothingPerPacketOrTick() throws {
            let clock = AllocationWatchingClock()
            let runtime = try MediaRuntime(configuration: MediaRuntimeConfiguration(ioThreadCount: 1, clock: clock))
            defer { runtime.shutdown() }
            let call = try LoopbackCall(
                codecs: [.pcmu], sampleRate: 8000, sourceSeconds: 6, srtp: [.aes128CounterModeHMACSHA1Tag80], runtime: runtime
            ) { configuration in
                configuration.rtcpMinimumIntervalSeconds = 5
            }
            Thread.sleep(forTimeInterval: 1.5)
            clock.arm()
            Thread.sleep(forTimeInterval: 3)
            let tally = clock.disarm()
            call.stop()
            #expect(call.callee.statistics.rtpPacketsReceived >= 200)
            #expect(tally.beats >= 500, "\(tally.beats) beats in 3 s (500 a second when the thread keeps its beat)")
            #if DEBUG
                // Unspecialised generics allocate in a debug build; `scripts/test.sh` runs this in release.
                #expect(tally.beats > 0)
            #else
                #expect(
                    tally.allocatingBeats <= 10, "\(tally.allocatingBeats) of \(tally.beats) beats allocated (\(tally.allocations) allocations)")
            #endif
        }
    }
}
