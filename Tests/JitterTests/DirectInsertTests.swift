import Codecs
import Testing

@testable import Jitter

/// ``SynchronizedJitterBuffer/insertDirectly(_:arrivalMilliseconds:)-(IncomingPacket,_)`` against
/// the inbox: a buffer fed directly on the pulling thread plays exactly what one fed through the
/// inbox plays, sample for sample, with the same statistics, over a stream with reordering,
/// duplicates, late packets, a silence gap, oversized payloads and an SSRC change.
@Suite struct DirectInsertTests {
    /// One scripted packet: its header, its first payload byte, its length and when it arrives.
    private struct ScriptedPacket {
        let sequence: Int
        let ssrc: UInt32
        let length: Int
        let arrivalMilliseconds: Double
    }

    /// 1500 packets of 20 ms with jitter of up to 45 ms, every 11th a duplicate of the one
    /// before, every 17th oversized, a 400 ms gap (packets 600–619 never sent), a new SSRC
    /// from packet 1000.
    private static func script() -> [ScriptedPacket] {
        var packets: [ScriptedPacket] = []
        for index in 0..<1500 where !(600..<620).contains(index) {
            let jitter = Double((index * 7919) % 46)
            let arrival = Double(index * 20) + jitter
            let length = index % 17 == 16 ? 400 : 160
            packets.append(ScriptedPacket(sequence: index, ssrc: index < 1000 ? 5 : 6, length: length, arrivalMilliseconds: arrival))
            if index % 11 == 10 {
                packets.append(ScriptedPacket(sequence: index, ssrc: index < 1000 ? 5 : 6, length: 160, arrivalMilliseconds: arrival + 1))
            }
        }
        return packets.sorted { $0.arrivalMilliseconds < $1.arrivalMilliseconds }
    }

    /// Plays the script in 10 ms pulls, feeding each packet before the first pull at or after
    /// its arrival with `insert`; returns every sample played.
    private static func play(
        _ script: [ScriptedPacket], into buffer: SynchronizedJitterBuffer<ConstantDecoder>,
        insert: (IncomingPacket, Double) -> Bool
    ) -> [Int16] {
        var played: [Int16] = []
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        var next = 0
        for pull in 0..<3200 {
            let now = Double(pull * 10)
            while next < script.count, script[next].arrivalMilliseconds <= now {
                let packet = script[next]
                var payload = [UInt8](repeating: UInt8(packet.sequence % 250 + 1), count: packet.length)
                _ = payload.withUnsafeMutableBytes { bytes in
                    insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(truncatingIfNeeded: packet.sequence), timestamp: UInt32(truncatingIfNeeded: packet.sequence * 160),
                            payloadType: 0, ssrc: packet.ssrc, payload: UnsafeRawBufferPointer(bytes)
                        ), packet.arrivalMilliseconds)
                }
                next += 1
            }
            _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
            played += pcm
        }
        return played
    }

    @Test func directInsertPlaysWhatTheInboxPlays() {
        var configuration = JitterBufferConfiguration()
        configuration.maximumPayloadBytes = 320
        let script = Self.script()
        let throughInbox = SynchronizedJitterBuffer(decoder: ConstantDecoder(), configuration: configuration)
        let direct = SynchronizedJitterBuffer(decoder: ConstantDecoder(), configuration: configuration, inboxCapacity: 1)
        let inboxPlayed = Self.play(script, into: throughInbox) { throughInbox.insert($0, arrivalMilliseconds: $1) }
        let directPlayed = Self.play(script, into: direct) { direct.insertDirectly($0, arrivalMilliseconds: $1) }
        #expect(inboxPlayed.contains { $0 != 0 }, "the stream was heard")
        #expect(directPlayed == inboxPlayed, "sample \(directPlayed.indices.first { directPlayed[$0] != inboxPlayed[$0] } ?? -1) differs")
        #expect(direct.statistics == throughInbox.statistics)
        #expect(direct.statistics.duplicatePackets > 0 && direct.statistics.packetsDiscarded > 0)
    }
}
