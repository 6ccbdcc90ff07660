import Testing
import RTP

@Suite("DTMF (RFC 4733) and comfort noise (RFC 3389)")
struct DTMFTests {
    @Test("Event payload parse and build")
    func payloadRoundTrip() throws {
        // Event 5, end bit, volume 10, duration 800 (RFC 4733 §2.3 layout).
        let bytes = hexBytes("058a0320")
        let payload = try bytes.withUnsafeBytes { try DTMFEventPayload(parsing: $0) }
        #expect(payload == DTMFEventPayload(event: 5, isEnd: true, volume: 10, duration: 800))
        let built = try build { try payload.write(into: $0) }
        #expect(built == bytes)
        // The reserved bit is ignored on input.
        let reserved = try hexBytes("05ca0320").withUnsafeBytes { try DTMFEventPayload(parsing: $0) }
        #expect(reserved == payload)
        #expect(
            hexBytes("0580").withUnsafeBytes { raw in rtpError { _ = try DTMFEventPayload(parsing: raw) } }
                == RTPError(.truncated(needed: 4, available: 2), at: 0))
        var buffer = [UInt8](repeating: 0, count: 4)
        let volumeError = buffer.withUnsafeMutableBytes { buffer in
            rtpError { _ = try DTMFEventPayload(event: 1, isEnd: false, volume: 64, duration: 0).write(into: buffer) }
        }
        #expect(volumeError?.reason == .valueOutOfRange(field: .dtmfVolume, value: 64))
    }

    @Test("Keypad characters map to event codes and back")
    func eventCodes() {
        let keys = Array("0123456789*#ABCD")
        for (code, key) in keys.enumerated() {
            #expect(DTMFEventCode.code(for: key) == UInt8(code))
            #expect(DTMFEventCode.character(for: UInt8(code)) == key)
        }
        #expect(DTMFEventCode.code(for: "E") == nil)
        #expect(DTMFEventCode.character(for: 16) == nil)
    }

    /// Every packet a sender emits until it goes idle.
    static func drain(_ sender: inout DTMFSender, limit: Int = 10_000) -> [DTMFPacket] {
        var packets: [DTMFPacket] = []
        while let packet = sender.nextPacket(), packets.count < limit { packets.append(packet) }
        return packets
    }

    @Test("Sender: marker first, one timestamp, growing duration, end sent three times")
    func senderFixedDuration() {
        var sender = DTMFSender(packetDuration: 160, volume: 10)
        let started = sender.start(event: 1, timestamp: RTPTimestamp(8000), duration: 800)
        let startedWhileBusy = sender.start(event: 2, timestamp: RTPTimestamp(9000))
        #expect(started && !startedWhileBusy)
        let packets = Self.drain(&sender)
        #expect(packets.map(\.payload.duration) == [160, 320, 480, 640, 800, 800, 800])
        #expect(packets.map(\.marker) == [true, false, false, false, false, false, false])
        #expect(packets.map(\.payload.isEnd) == [false, false, false, false, true, true, true])
        #expect(Set(packets.map(\.timestamp)) == [RTPTimestamp(8000)])
        #expect(packets.allSatisfy { $0.payload.event == 1 && $0.payload.volume == 10 })
        #expect(!sender.isActive && sender.nextPacket() == nil)
    }

    @Test("Sender: an open-ended event ends on stop")
    func senderStop() {
        var sender = DTMFSender(packetDuration: 160)
        sender.start(event: 11, timestamp: RTPTimestamp(0))
        let first = (0..<3).compactMap { _ in sender.nextPacket() }
        #expect(first.map(\.payload.duration) == [160, 320, 480])
        sender.stop()
        let rest = Self.drain(&sender)
        #expect(rest.map(\.payload.duration) == [480, 480, 480])
        #expect(rest.allSatisfy { $0.payload.isEnd })
        // A planned event stopped early ends at once with the duration sent so far.
        sender.start(event: 4, timestamp: RTPTimestamp(9000), duration: 8000)
        _ = sender.nextPacket()
        sender.stop()
        #expect(Self.drain(&sender).map(\.payload.duration) == [160, 160, 160])
    }

    @Test("Sender: a long event is split into segments at duration 0xFFFF")
    func senderLongEvent() {
        var sender = DTMFSender(packetDuration: 8000)  // 1 s packets at 8 kHz to keep the count small
        let total: UInt32 = 150_000
        sender.start(event: 0, timestamp: RTPTimestamp(UInt32.max - 10), duration: total)
        let packets = Self.drain(&sender)
        let segmentStarts = packets.map(\.timestamp).reduce(into: [RTPTimestamp]()) { if $0.last != $1 { $0.append($1) } }
        #expect(
            segmentStarts == [
                RTPTimestamp(UInt32.max - 10), RTPTimestamp(UInt32.max - 10).advanced(by: 0xFFFF),
                RTPTimestamp(UInt32.max - 10).advanced(by: 2 * 0xFFFF),
            ])
        #expect(packets.filter { $0.payload.duration == 0xFFFF }.count == 2)
        #expect(packets.filter(\.marker).count == 1)
        let last = packets[packets.count - 1]
        #expect(last.payload.isEnd && Int(last.payload.duration) == Int(total) - 2 * 0xFFFF)
        var receiver = DTMFReceiver()
        let presses = packets.flatMap { Array(receiver.receive($0.payload, timestamp: $0.timestamp)) }
        #expect(presses == [DTMFKeyPress(event: 0, timestamp: RTPTimestamp(UInt32.max - 10), duration: UInt64(total), volume: 10, endReceived: true)])
    }

    @Test("Receiver: one report per press, end repeats ignored")
    func receiverBasics() {
        var sender = DTMFSender(packetDuration: 160)
        var receiver = DTMFReceiver()
        var presses: [DTMFKeyPress] = []
        for (index, key) in "19#".enumerated() {
            sender.start(event: DTMFEventCode.code(for: key) ?? 0, timestamp: RTPTimestamp(UInt32(index * 10_000)), duration: 640)
            for packet in Self.drain(&sender) { presses += receiver.receive(packet.payload, timestamp: packet.timestamp) }
        }
        #expect(presses.map(\.event) == [1, 9, 11])
        #expect(presses.allSatisfy { $0.duration == 640 && $0.endReceived })
        #expect(receiver.flush() == nil)
    }

    @Test("Receiver: start packets lost, only end packets arrive, end packets all lost")
    func receiverLoss() {
        var receiver = DTMFReceiver()
        func send(_ event: UInt8, _ timestamp: UInt32, _ duration: UInt16, end: Bool) -> [DTMFKeyPress] {
            Array(receiver.receive(DTMFEventPayload(event: event, isEnd: end, volume: 7, duration: duration), timestamp: RTPTimestamp(timestamp)))
        }
        // Press 1: only the middle and end packets arrive.
        #expect(send(1, 1000, 480, end: false).isEmpty)
        #expect(send(1, 1000, 800, end: true).map(\.duration) == [800])
        #expect(send(1, 1000, 800, end: true).isEmpty)
        // Press 2: only a repeated end packet arrives.
        #expect(send(2, 5000, 640, end: true).map(\.event) == [2])
        #expect(send(2, 5000, 640, end: true).isEmpty)
        // Press 3: every end packet is lost; press 4 (same digit, new timestamp) reveals it.
        #expect(send(3, 9000, 160, end: false).isEmpty)
        #expect(send(3, 9000, 320, end: false).isEmpty)
        let reported = send(3, 12000, 160, end: false)
        #expect(reported == [DTMFKeyPress(event: 3, timestamp: RTPTimestamp(9000), duration: 320, volume: 7, endReceived: false)])
        // A late packet of press 3 after press 4 began is ignored.
        #expect(send(3, 9000, 480, end: true).isEmpty)
        #expect(receiver.flush()?.timestamp == RTPTimestamp(12000))
        #expect(receiver.flush() == nil)
    }

    @Test("Comfort noise payload parse and build")
    func comfortNoise() throws {
        let bytes: [UInt8] = [0x3F, 0x80, 0x7F, 0x01]
        try bytes.withUnsafeBytes { raw in
            let payload = try ComfortNoisePayload(parsing: raw)
            #expect(payload.noiseLevel == 63)
            #expect(array(payload.reflectionCoefficients) == [0x80, 0x7F, 0x01])
        }
        let built = try build { buffer in
            try [UInt8](bytes.dropFirst()).withUnsafeBytes { try ComfortNoisePayload.write(noiseLevel: 63, reflectionCoefficients: $0, into: buffer) }
        }
        #expect(built == bytes)
        let levelOnly = try build { try ComfortNoisePayload.write(noiseLevel: 127, into: $0) }
        #expect(levelOnly == [127])
        #expect([UInt8]().withUnsafeBytes { raw in rtpError { _ = try ComfortNoisePayload(parsing: raw) } }?.reason == .truncated(needed: 1, available: 0))
        // RFC 3389 §3: the top bit is reserved (sent as 0); a receiver reads the level below it.
        #expect(try [UInt8]([0x80 | 70, 0x01]).withUnsafeBytes { try ComfortNoisePayload(parsing: $0).noiseLevel } == 70)
        #expect(try [UInt8]([0xFF]).withUnsafeBytes { try ComfortNoisePayload(parsing: $0).noiseLevel } == 127)
        #expect(
            rtpError { _ = try build { try ComfortNoisePayload.write(noiseLevel: 128, into: $0) } }?.reason == .valueOutOfRange(field: .noiseLevel, value: 128))
    }
}
