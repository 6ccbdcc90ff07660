import Codecs

/// The negotiated decoder as one concrete type, so the generic jitter buffer can hold
/// whichever codec the call uses. One dynamic call per frame, not per sample.
struct SessionDecoder: AudioDecoder {
    private var base: any AudioDecoder

    init(_ base: any AudioDecoder) {
        self.base = base
    }

    var format: AudioFormat { base.format }
    var rtpClockRate: Int { base.rtpClockRate }
    var supportsForwardErrorCorrection: Bool { base.supportsForwardErrorCorrection }
    var blendsAfterConcealment: Bool { base.blendsAfterConcealment }

    func carriesForwardErrorCorrection(in nextPayload: UnsafeRawBufferPointer) -> Bool {
        base.carriesForwardErrorCorrection(in: nextPayload)
    }

    mutating func decode(_ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        try base.decode(payload, into: pcm)
    }

    mutating func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        try base.decode(lost: samplesPerChannel, into: pcm)
    }

    mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        try base.decodeFEC(from: nextPayload, samplesPerChannel: samplesPerChannel, into: pcm)
    }
}
