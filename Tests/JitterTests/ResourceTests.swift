import BenchmarkHarness
import Codecs
import Foundation
import RTP
import Testing
import TestSupport

@testable import Jitter
import PlayoutLab

/// A codec whose every sample is the payload's first byte times 100: enough to see which
/// packet was played, with no state and no allocation.
struct ConstantDecoder: AudioDecoder {
    let format = AudioFormat(sampleRate: 8000, channels: 1)
    let rtpClockRate = 8000
    let supportsForwardErrorCorrection = false
    var blendsAfterConcealment = false

    func decode(_ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        guard let value = payload.first else { throw .invalidPayload("empty") }
        let count = min(160, pcm.count)
        for index in 0..<count { pcm[index] = Int16(value) * 100 }
        return count
    }

    func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        let count = min(samplesPerChannel, pcm.count)
        for index in 0..<count { pcm[index] = 0 }
        return count
    }

    func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        try decode(lost: samplesPerChannel, into: pcm)
    }
}

/// Inserts packet `index` of a 20 ms stream (payload byte: index % 200 + 1).
func insert(_ index: Int, into buffer: inout JitterBuffer<ConstantDecoder>, arrival: Double) {
    var payload = [UInt8](repeating: UInt8(index % 200 + 1), count: 160)
    payload.withUnsafeMutableBytes { bytes in
        _ = buffer.insert(
            IncomingPacket(
                sequenceNumber: UInt16(truncatingIfNeeded: index), timestamp: UInt32(truncatingIfNeeded: index * 160),
                payloadType: 0, ssrc: 7, payload: UnsafeRawBufferPointer(bytes)
            ),
            arrivalMilliseconds: arrival
        )
    }
}

/// The stream the allocation tests play: 20 ms packets with some loss (so concealment and
/// merges run) and jittered arrivals (so time-stretching runs), two 10 ms pulls per packet.
struct AllocationStream {
    static let measuredPulls: UInt64 = 2000
    private var pcm: [Int16]
    private var payload = [UInt8](repeating: 1, count: 160)
    private var next = 0
    private var time = 0.0

    private init(samplesPerPull: Int) {
        pcm = [Int16](repeating: 0, count: samplesPerPull)
    }

    /// Plays 200 pulls to warm up, then expects no allocation in ``measuredPulls`` more: none
    /// in an optimised build; in a debug build, whose unspecialised generic code still makes
    /// the odd one when decoding a packet, fewer than one per packet.
    static func expectNoAllocationsAfterWarmUp(
        samplesPerPull: Int, insert: (IncomingPacket, Double) -> Void, pull: (UnsafeMutableBufferPointer<Int16>, Double) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var stream = AllocationStream(samplesPerPull: samplesPerPull)
        _ = stream.play(pulls: 200, insert: insert, pull: pull)
        let allocations = stream.play(pulls: Int(measuredPulls), insert: insert, pull: pull)
        #if DEBUG
            #expect(allocations < measuredPulls / 2, sourceLocation: sourceLocation)
        #else
            #expect(allocations == 0, sourceLocation: sourceLocation)
        #endif
    }

    private mutating func play(
        pulls: Int, insert: (IncomingPacket, Double) -> Void, pull: (UnsafeMutableBufferPointer<Int16>, Double) -> Void
    ) -> UInt64 {
        AllocationCounter.counting {
            pcm.withUnsafeMutableBufferPointer { output in
                payload.withUnsafeMutableBytes { bytes in
                    for _ in 0..<pulls / 2 {
                        if next % 7 != 3 {
                            bytes[0] = UInt8(next % 200 + 1)
                            let packet = IncomingPacket(
                                sequenceNumber: UInt16(truncatingIfNeeded: next), timestamp: UInt32(truncatingIfNeeded: next * 160),
                                payloadType: 0, ssrc: 7, payload: UnsafeRawBufferPointer(bytes))
                            insert(packet, time + Double(next % 5) * 7)
                        }
                        next += 1
                        for _ in 0..<2 {
                            pull(output, time)
                            time += 10
                        }
                    }
                }
            }
        }.allocations
    }
}

@Suite struct ResourceTests {
    @Test func storeNeverExceedsItsCapacity() {
        var configuration = JitterBufferConfiguration()
        configuration.packetCapacity = 8
        var buffer = JitterBuffer(decoder: ConstantDecoder(), configuration: configuration)
        for index in 0..<100 {
            insert(index, into: &buffer, arrival: Double(index))
            #expect(buffer.storedPacketCount <= 8)
        }
        #expect(buffer.statistics.packetsDiscarded == 92, "each packet past the capacity evicts the earliest")
    }

    @Test func hostileTimesAndSettingsDoNotTrap() {
        var configuration = JitterBufferConfiguration()
        configuration.maximumDelayMilliseconds = .nan
        configuration.delayQuantile = .infinity
        configuration.initialDelayMilliseconds = -5
        configuration.concealmentFadeMilliseconds = .greatestFiniteMagnitude
        configuration.maximumFrameMilliseconds = .max
        var buffer = JitterBuffer(decoder: ConstantDecoder(), configuration: configuration)
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        for (index, arrival) in [Double.nan, .infinity, -.infinity, 1e300, 0, 20, 40].enumerated() {
            insert(index, into: &buffer, arrival: arrival)
        }
        #expect(buffer.statistics.packetsDiscarded == 4, "the four arrival times that are not times")
        for now in [Double.nan, 0, 1e300, -1e300, 10, 20, 30] {
            _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
        }
        #expect(buffer.statistics.playedSamples == 7 * 80)
    }

    @Test func oversizedPayloadIsRefused() {
        var configuration = JitterBufferConfiguration()
        configuration.maximumPayloadBytes = 100
        var buffer = JitterBuffer(decoder: ConstantDecoder(), configuration: configuration)
        insert(0, into: &buffer, arrival: 0)
        #expect(buffer.storedPacketCount == 0)
        #expect(buffer.statistics.packetsDiscarded == 1)
    }

    /// Run in a release build (`scripts/test.sh` runs every `Allocat` test with
    /// `swift test -c release`) this asserts zero allocations; in debug it only bounds them.
    @Test(.countsAllocations) func insertAndPullAllocateNothing() {
        var buffer = JitterBuffer(decoder: ConstantDecoder())
        AllocationStream.expectNoAllocationsAfterWarmUp(samplesPerPull: buffer.samplesPerPull) {
            buffer.insert($0, arrivalMilliseconds: $1)
        } pull: {
            _ = buffer.pull(into: $0, nowMilliseconds: $1)
        }
    }

    /// The synchronized buffer's path (insert, then pull, on one thread here) allocates nothing
    /// after warm-up either: the inbox writes payloads into slots its store lends it, and the
    /// store keeps them there.
    @Test(.countsAllocations) func synchronizedInsertAndPullAllocateNothing() {
        let buffer = SynchronizedJitterBuffer(decoder: ConstantDecoder())
        AllocationStream.expectNoAllocationsAfterWarmUp(samplesPerPull: buffer.samplesPerPull) {
            buffer.insert($0, arrivalMilliseconds: $1)
        } pull: {
            _ = buffer.pull(into: $0, nowMilliseconds: $1)
        }
    }

    /// Every store slot lent to the inbox comes back, whatever becomes of the packet written
    /// into it (stored, evicted from a full store, duplicate, late, oversized, lost to a new
    /// SSRC): 3000 packets of 20 ms in bursts of four into a store of three, and the inbox
    /// never runs out of slots while the payloads go on playing.
    @Test func lentSlotsComeBackWhateverBecomesOfThePacket() {
        var configuration = JitterBufferConfiguration()
        configuration.packetCapacity = 3
        configuration.maximumPayloadBytes = 200
        let buffer = SynchronizedJitterBuffer(decoder: ConstantDecoder(), configuration: configuration, inboxCapacity: 4)
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        var played = Set<Int16>()
        var refused = 0
        var sent = 0
        for cycle in 0..<750 {
            for slot in 0..<4 {
                let index = cycle * 4 + slot
                let sequence = index % 10 == 9 ? index - 1 : (index % 13 == 12 ? max(index - 100, 0) : index)
                var payload = [UInt8](repeating: UInt8(sequence % 200 + 1), count: index % 17 == 16 ? 300 : 160)
                let accepted = payload.withUnsafeMutableBytes { bytes in
                    buffer.insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(truncatingIfNeeded: sequence), timestamp: UInt32(truncatingIfNeeded: sequence * 160),
                            payloadType: 0, ssrc: cycle < 400 ? 7 : 8, payload: UnsafeRawBufferPointer(bytes)
                        ),
                        arrivalMilliseconds: Double(cycle * 80)
                    )
                }
                sent += 1
                if !accepted && payload.count <= 200 { refused += 1 }
            }
            for pull in 0..<8 {
                _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: Double(cycle * 80 + pull * 10)) }
                played.formUnion(pcm.filter { $0 > 0 && $0 % 100 == 0 })
            }
        }
        #expect(refused == 0, "the inbox ran out of lent slots \(refused) times")
        #expect(buffer.statistics.packetsReceived == sent)
        #expect(buffer.statistics.duplicatePackets > 0 && buffer.statistics.latePackets > 0)
        #expect(buffer.statistics.packetsDiscarded > 0, "oversized payloads and evictions from the full store")
        #expect(played.count > 100, "\(played.count) payload values heard")
    }

    @Test func synchronizedBufferTakesPacketsFromAnotherThread() {
        let buffer = SynchronizedJitterBuffer(decoder: ConstantDecoder())
        let start = Date()
        let now: @Sendable () -> Double = { Date().timeIntervalSince(start) * 1000 }
        let network = Thread {
            var payload = [UInt8](repeating: 0, count: 160)
            for index in 0..<60 {
                payload[0] = UInt8(index + 1)
                payload.withUnsafeBytes { bytes in
                    _ = buffer.insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(index), timestamp: UInt32(index * 160), payloadType: 0, ssrc: 9, payload: bytes
                        ),
                        arrivalMilliseconds: now()
                    )
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        network.start()
        var pcm = [Int16](repeating: 0, count: 80)
        var played = Set<Int16>()
        for _ in 0..<150 {
            _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now()) }
            played.formUnion(pcm.filter { $0 > 0 && $0 % 100 == 0 })
            _ = buffer.statistics
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(buffer.statistics.packetsReceived == 60)
        // Most packets are heard despite the scheduling noise of a loaded machine.
        #expect(played.count > 40, "\(played.count) of 60 packets heard")
    }
}

@Suite struct RTPPacketInsertTests {
    @Test func parsedRTPPacketsGoStraightIn() throws {
        var buffer = JitterBuffer(decoder: ConstantDecoder())
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        for index in 0..<20 {
            // Version 2, marker on the first, PT 0, sequence 65530 + index (wrapping), 20 ms apart.
            let sequence = UInt16(truncatingIfNeeded: 65530 + index), timestamp = UInt32(index * 160)
            var datagram: [UInt8] = [0x80, index == 0 ? 0x80 : 0x00, UInt8(sequence >> 8), UInt8(sequence & 0xFF)]
            datagram += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: timestamp >> $0) } + [0, 0, 0x12, 0x34]
            datagram += [UInt8](repeating: UInt8(index + 1), count: 160)
            let outcome = try datagram.withUnsafeBytes { bytes in
                buffer.insert(try RTPPacket(bytes), arrivalMilliseconds: Double(index * 20))
            }
            #expect(outcome == (index == 0 ? .acceptedAfterReset : .accepted))
            for pull in 0..<2 {
                _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: Double(index * 20 + pull * 10)) }
            }
        }
        #expect(buffer.statistics.packetsReceived == 20)
        #expect(buffer.statistics.latePackets == 0 && buffer.statistics.duplicatePackets == 0)
        #expect(pcm.allSatisfy { $0 > 0 }, "decoded audio is playing")
    }
}
