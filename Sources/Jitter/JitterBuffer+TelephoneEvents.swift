import RTP

/// The telephone event whose media time the buffer plays as its tone: an RFC 4733 sender sends
/// events in place of audio, so without it those 100 ms or more of each digit would be
/// concealed as if lost.
struct TelephoneEventTone: Equatable {
    /// The event's first and last media positions (the latest duration heard).
    var start: Int64
    var end: Int64
    var event: UInt8
    var volume: UInt8
    /// Whether a packet with the E bit came: the tone stops at `end` exactly.
    var ended: Bool
}

extension JitterBuffer {
    /// How far past the last duration heard the tone of an event without its end goes on
    /// (an update lost on the way), in frames of the stream.
    static var toneHoldoverFrames: Int64 { 2 }

    /// The clock rate of the telephone-event format on `payloadType`, or nil when it is none of
    /// the configured ones.
    func telephoneEventClockRate(ofPayloadType payloadType: UInt8) -> Int? {
        // An audio packet's answer, from the buffer's own line (the formats are another block).
        guard telephoneEventPayloadTypes.contains(payloadType) else { return nil }
        for format in configuration.telephoneEvents where format.payloadType == payloadType {
            return format.clockRate
        }
        return nil
    }

    /// Takes one telephone-event packet of the current stream, whose start is at `position`:
    /// the event's tone is extended to its latest duration. An event entirely behind the
    /// playout, or older than the one under way, changes nothing; a malformed payload is
    /// counted discarded.
    mutating func recordTelephoneEvent(_ payload: UnsafeRawBufferPointer, position: Int64, clockRate: Int) {
        guard let event = try? DTMFEventPayload(parsing: payload), clockRate > 0 else {
            counters.packetsDiscarded += 1
            return
        }
        let end = position + Int64(event.duration) * Int64(sampleRate) / Int64(clockRate)
        if var tone, tone.start == position {
            tone.end = max(tone.end, end)
            tone.ended = tone.ended || event.isEnd
            self.tone = tone
            return
        }
        if let tone, position < tone.start { return }
        guard end + Self.toneHoldoverFrames * Int64(frameSamples) > queueEndPosition else { return }
        tone = TelephoneEventTone(start: position, end: end, event: event.event, volume: event.volume, ended: event.isEnd)
    }

    /// How many frames of the event's tone to queue at the end of the queue, `end`, before the
    /// next stored packet (`nextPosition`), or nil when no event covers `end`.
    func toneFrames(at end: Int64, nextPosition: Int64?) -> Int? {
        guard let tone, tone.start <= end else { return nil }
        let stop = tone.ended ? tone.end : tone.end + Self.toneHoldoverFrames * Int64(frameSamples)
        let limit = min(stop, nextPosition ?? stop)
        guard limit > end else { return nil }
        return Int(min(limit - end, Int64(samplesPerPull)))
    }

    /// Queues `frames` of the event's tone: media, not concealment. When an ended event's tone
    /// is over, the buffer waits in silence for the audio after it, as after a talkspurt.
    mutating func playTone(frames: Int) {
        guard let tone else { return }
        let channels = queue.channels
        let frames = max(min(frames, decodeScratch.count / channels), 1)
        toneGenerator.render(
            event: tone.event, volume: tone.volume, sampleRate: sampleRate, channels: channels, frames: frames, into: decodeScratch)
        queue.append(UnsafeBufferPointer(rebasing: decodeScratch[0..<(frames * channels)]))
        queueEndPosition += Int64(frames)
        counters.toneSamples += frames
        closeConcealmentEvent(resumedByTalkspurt: true)
        concealedRunSamples = 0
        mode = .speech
        if tone.ended, queueEndPosition >= tone.end {
            self.tone = nil
            mode = .comfortNoise
        }
    }
}
