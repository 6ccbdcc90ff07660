import Jitter

/// What a jitter buffer that only names frames (an outside peer) gave for one frame-long pull.
public enum FramePull: Sendable, Equatable {
    /// It played the packet with this (unwrapped) sequence number.
    case played(sequenceNumber: UInt64)
    /// A frame was due and it had none: the decoder conceals.
    case missing
    /// It held back on purpose (building up its delay): silence.
    case buffering
}
import Jitter

extension SpeechPackets {
    /// What a listener hears from a buffer that only says which frame to play: one frame of
    /// samples per pull, the packet's payload decoded for a played frame, the decoder's
    /// concealment (``makeDecoder()``, Appendix I) for a missing one, silence while buffering.
    /// `packets` gives each sequence number's RTP timestamp; a pull that names a sequence
    /// number the trace does not have is concealed.
    public func render(_ pulls: [FramePull], packets: [SimulatedPacket]) -> [Int16] {
        var timestamps: [UInt64: UInt64] = [:]
        for packet in packets { timestamps[packet.sequenceNumber] = packet.rtpTimestamp }
        var decoder = makeDecoder()
        var audio = [Int16](repeating: 0, count: pulls.count * samplesPerFrame)
        audio.withUnsafeMutableBufferPointer { audio in
            for (index, pull) in pulls.enumerated() {
                let pcm = UnsafeMutableBufferPointer(rebasing: audio[(index * samplesPerFrame)..<((index + 1) * samplesPerFrame)])
                // A G.711 payload of one frame always fits its frame, and a frame is never
                // empty, so neither call can fail; were one to, the frame stays silent.
                switch pull {
                case .played(let sequenceNumber):
                    if let timestamp = timestamps[sequenceNumber] {
                        _ = payload(forTimestamp: timestamp).withUnsafeBytes { try? decoder.decode($0, into: pcm) }
                    } else {
                        _ = try? decoder.decode(lost: samplesPerFrame, into: pcm)
                    }
                case .missing:
                    _ = try? decoder.decode(lost: samplesPerFrame, into: pcm)
                case .buffering:
                    break
                }
            }
        }
        return audio
    }
}
