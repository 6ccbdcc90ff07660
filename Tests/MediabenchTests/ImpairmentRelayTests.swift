import Foundation
import MediaSession
import NetworkModel
import Synchronization
import Testing

@testable import MediabenchCLI

/// Every test here that sends real datagrams in real time, one at a time (the machine may have
/// only two cores, and timing is what they check).
@Suite(.serialized) enum LiveNetworkTests {}

extension LiveNetworkTests {
    /// The impairment relay forwards real datagrams over loopback exactly as its trace says.
    @Suite struct ImpairmentRelayTests {
        /// One datagram as the far end received it.
        struct Arrival {
            var index: Int
            var nanoseconds: Int64
        }

        /// Sends `count` RTP-looking datagrams `spacingMilliseconds` apart from a socket standing for
        /// the caller through a relay with `impairment`, and returns the send times and what the
        /// socket standing for the callee received (waiting `drainSeconds` at the end).
        func exchange(
            count: Int, spacingMilliseconds: Double, impairment: RelayImpairment, drainSeconds: Double
        ) throws -> (sent: [Int64], arrivals: [Arrival], counts: [RelayCounts]) {
            let caller = try UDPSocket(binding: .loopbackIPv4())
            let callee = try UDPSocket(binding: .loopbackIPv4())
            let relay = try ImpairmentRelay(caller: caller.localAddress, callee: callee.localAddress, impairment: impairment)
            let received = Mutex<[Arrival]>([])
            let loop = try UDPEventLoop()
            defer { loop.shutdown() }
            _ = try loop.register(callee) { datagram in
                let bytes = UnsafeRawBufferPointer(datagram.bytes)
                let index = bytes.count == 6 ? Int(bytes[2]) << 8 | Int(bytes[3]) : -1
                received.withLock { $0.append(Arrival(index: index, nanoseconds: datagram.arrivalNanoseconds)) }
            }
            var sent: [Int64] = []
            let start = Date()
            for index in 0..<count {
                Thread.sleep(until: start.addingTimeInterval(Double(index) * spacingMilliseconds / 1000))
                let datagram: [UInt8] = [0x80, 0x00, UInt8(index >> 8), UInt8(index & 0xFF), 0, 0]
                sent.append(Int64(Date().timeIntervalSince1970 * 1e9))
                try datagram.withUnsafeBytes { _ = try caller.send($0, to: relay.callerFacingAddress) }
            }
            Thread.sleep(forTimeInterval: drainSeconds)
            let counts = try relay.stop()
            return (sent, received.withLock { $0 }, counts)
        }

        /// Each datagram's delivery error (measured − intended delay, in ms): typically within a
        /// millisecond or two, never more than a scheduling hiccup of a busy machine late, never early.
        func expectOnTime(_ errors: [Double]) {
            let magnitudes = errors.map(abs).sorted()
            guard !magnitudes.isEmpty else { return }
            #expect(magnitudes[magnitudes.count / 2] < 2, "median error \(magnitudes[magnitudes.count / 2]) ms")
            #expect(errors.allSatisfy { $0 > -1 && $0 < 15 }, "errors from \(errors.min() ?? 0) to \(errors.max() ?? 0) ms")
        }

        @Test func cleanScenarioForwardsEverythingInOrderAfterItsDelay() throws {
            let (sent, arrivals, counts) = try exchange(
                count: 50, spacingMilliseconds: 5, impairment: RelayImpairment(scenario: .clean, seed: 1, seconds: 10), drainSeconds: 0.2
            )
            #expect(arrivals.map(\.index) == Array(0..<50))
            expectOnTime(arrivals.map { Double($0.nanoseconds - sent[$0.index]) / 1e6 - 40 })
            #expect(counts[RelayDirection.callerToCallee.rawValue].rtpReceived == 50)
            #expect(counts[RelayDirection.callerToCallee.rawValue].rtpDelivered == 50)
        }

        @Test func lossyJitteryPathDeliversExactlyWhatTheTraceSays() throws {
            var profile = NetworkProfile()
            profile.durationSeconds = 5
            profile.jitter = .normal(meanMilliseconds: 0, standardDeviationMilliseconds: 15)
            profile.loss = .random(0.1)
            profile.reorderProbability = 0.2
            profile.reorderDelayMilliseconds = 40
            profile.duplicateProbability = 0.1
            let trace = TraceGenerator(profile: profile).generate(seed: 7).trace
            var fates = PacketFates(trace: trace)
            let expected = (0..<100).map { _ in fates.next() }
            #expect(expected.contains { $0.isEmpty } && expected.contains { $0.count == 2 }, "the trace has losses and duplicates")
            let (sent, arrivals, counts) = try exchange(
                count: 100, spacingMilliseconds: 10,
                impairment: RelayImpairment(callerToCallee: PacketFates(trace: trace), calleeToCaller: PacketFates(trace: trace)),
                drainSeconds: 0.4
            )
            #expect(arrivals.count == expected.reduce(0) { $0 + $1.count })
            #expect(counts[0].rtpDropped == expected.filter(\.isEmpty).count)
            var errors: [Double] = []
            for (index, delays) in expected.enumerated() {
                let copies = arrivals.filter { $0.index == index }.map { Double($0.nanoseconds - sent[index]) / 1e6 }
                #expect(copies.count == delays.count, "packet \(index): \(copies.count) copies, the trace says \(delays.count)")
                errors += zip(copies.sorted(), delays.sorted()).map { $0 - $1 }
            }
            expectOnTime(errors)
            // The arrival order is the trace's (the reordered packets overtaken), up to ties within a few ms.
            for (earlier, later) in zip(arrivals, arrivals.dropFirst()) {
                let dueEarlier = sent[earlier.index] + Int64((expected[earlier.index].min() ?? 0) * 1e6)
                let dueLater = sent[later.index] + Int64((expected[later.index].max() ?? 0) * 1e6)
                #expect(dueEarlier <= dueLater + 4_000_000, "packet \(earlier.index) arrived before \(later.index)")
            }
            #expect(zip(arrivals, arrivals.dropFirst()).contains { $0.index > $1.index }, "some packets were reordered")
        }

        /// The relay measures how far the sender's own timing strays from its RTP clock: audio
        /// packets 20 ms apart on the clock, one of them sent 30 ms late, spread by 30 ms (and
        /// whatever this machine's scheduling adds); a telephone event, whose timestamp stays at
        /// its start, does not count.
        @Test func sendingSpreadFollowsTheSendersRTPClock() throws {
            let caller = try UDPSocket(binding: .loopbackIPv4())
            let callee = try UDPSocket(binding: .loopbackIPv4())
            let relay = try ImpairmentRelay(
                caller: caller.localAddress, callee: callee.localAddress,
                impairment: RelayImpairment(scenario: .clean, seed: 1, seconds: 10), rtpClockRate: 8000)
            func datagram(payloadType: UInt8, timestamp: UInt32) -> [UInt8] {
                [
                    0x80, payloadType, 0, 0, UInt8(timestamp >> 24), UInt8(timestamp >> 16 & 0xFF), UInt8(timestamp >> 8 & 0xFF),
                    UInt8(timestamp & 0xFF), 1, 2, 3, 4,
                ] + [UInt8](repeating: 0xFF, count: 160)
            }
            let start = Date()
            let first: UInt32 = 0xFFFF_FF00  // wraps within the stream
            for index in 0..<12 {
                let late = index == 6 ? 0.030 : 0
                Thread.sleep(until: start.addingTimeInterval(Double(index) * 0.020 + late))
                let bytes = datagram(payloadType: 0, timestamp: first &+ UInt32(index * 160))
                try bytes.withUnsafeBytes { _ = try caller.send($0, to: relay.callerFacingAddress) }
            }
            let event = datagram(payloadType: 101, timestamp: first)
            try event.withUnsafeBytes { _ = try caller.send($0, to: relay.callerFacingAddress) }
            Thread.sleep(forTimeInterval: 0.1)
            let counts = try relay.stop()[RelayDirection.callerToCallee.rawValue]
            #expect(counts.rtpReceived == 13)
            #expect(
                counts.rtpSendingSpreadMilliseconds >= 29 && counts.rtpSendingSpreadMilliseconds < 45,
                "spread \(counts.rtpSendingSpreadMilliseconds) ms")
        }
    }
}
