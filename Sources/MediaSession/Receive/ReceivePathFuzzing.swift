import Codecs
import Jitter
import QualityMetrics
import RTP
import Locking

/// The receive path without sockets or threads, for the libFuzzer targets in
/// Fuzz/MediaSessionTargets.swift. Not part of the API.
@_spi(Fuzzing) public enum ReceivePathFuzzing {
    private static let peer = SocketAddress.loopbackIPv4(port: 5004)
    private static let plain = makePath(srtp: false)
    private static let protected = makePath(srtp: true)
    /// The clock of both paths, standing at the one arrival time every datagram is stamped with.
    private static let clock = ManualClock(nanoseconds: 1_000_000_000)

    /// Hands `bytes` to a PCMU receive path (with SRTP AES-CM when `srtp`) as one datagram,
    /// then plays 10 ms from its jitter buffer.
    public static func receive(_ bytes: UnsafeRawBufferPointer, srtp: Bool) {
        guard let (path, jitterBuffer) = srtp ? protected : plain else { return }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: jitterBuffer.samplesPerPull)
        defer {
            copy.deallocate()
            pcm.deallocate()
        }
        copy.copyMemory(from: bytes)
        path.receive(ReceivedDatagram(bytes: copy, source: peer, arrivalNanoseconds: 1_000_000_000, isTruncated: false))
        _ = jitterBuffer.pull(into: pcm, nowMilliseconds: 1000)
    }

    private static func makePath(srtp: Bool) -> (ReceivePath, SynchronizedJitterBuffer<SessionDecoder>)? {
        let codec = NegotiatedCodec(payloadType: 0, map: RTPMap(encodingName: "PCMU", clockRate: 8000))
        let media = NegotiatedAudio(
            remoteAddress: "127.0.0.1", remoteRTPPort: 5004, remoteRTCPPort: 5004, rtcpMux: true, sendCodec: codec,
            receiveCodecs: [codec], telephoneEventPayloadType: 101, packetTimeMilliseconds: 20, direction: .sendReceive,
            crypto: nil
        )
        var inbound: SRTPInboundSession?
        if srtp {
            let key = try? SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: [UInt8](repeating: 0x2B, count: 30))
            guard let key, let session = try? SRTPInboundSession(key: key) else { return nil }
            inbound = consume session
        }
        let jitterBuffer = SynchronizedJitterBuffer(decoder: SessionDecoder(G711Decoder(law: .muLaw)))
        let (_, events) = AsyncStream<MediaSessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let path = ReceivePath(
            media: media, inbound: inbound, jitterBuffer: jitterBuffer,
            monitor: PThreadLock(QualityMonitor(codec: MonitoredCodec(encodingName: "PCMU", clockRate: 8000, packetDurationMilliseconds: 20), start: .zero)),
            clock: MediaClock(monotonic: clock, wall: clock), epoch: .zero, latches: true, comfortNoisePayloadType: 13, events: events
        )
        return (path, jitterBuffer)
    }
}
