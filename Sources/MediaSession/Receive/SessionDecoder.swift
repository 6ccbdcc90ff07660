import Codecs

/// The negotiated decoder as one concrete type, so the generic jitter buffer can hold
/// whichever codec the call uses.
///
/// A G.711 decoder is held as itself, inline: the jitter buffer keeps it in its own storage,
/// which a server leg's tick warms, and a frame calls it directly (behind an existential it
/// lay in a box of its own on the heap, reached and checked for uniqueness at every frame, a
/// cold line for a server leg). Any other codec is held behind its protocol: one dynamic call
/// per frame, not per sample.
struct SessionDecoder: AudioDecoder {
    /// The call's decoder when it is G.711; `nil` otherwise.
    private var g711: G711Decoder?
    /// The call's decoder for any other codec; `nil` when ``g711`` holds it. Exactly one of the
    /// two is set.
    private var other: (any AudioDecoder)?

    init(_ base: any AudioDecoder) {
        if let g711 = base as? G711Decoder {
            self.g711 = g711
        } else {
            other = base
        }
    }

    var format: AudioFormat { g711?.format ?? other!.format }
    var rtpClockRate: Int { g711?.rtpClockRate ?? other!.rtpClockRate }
    var supportsForwardErrorCorrection: Bool { g711?.supportsForwardErrorCorrection ?? other!.supportsForwardErrorCorrection }
    var blendsAfterConcealment: Bool { g711?.blendsAfterConcealment ?? other!.blendsAfterConcealment }

    func carriesForwardErrorCorrection(in nextPayload: UnsafeRawBufferPointer) -> Bool {
        g711?.carriesForwardErrorCorrection(in: nextPayload) ?? other!.carriesForwardErrorCorrection(in: nextPayload)
    }

    mutating func decode(_ payload: UnsafeRawBufferPointer, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        if g711 != nil { return try g711!.decode(payload, into: pcm) }
        return try other!.decode(payload, into: pcm)
    }

    mutating func decode(lost samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) -> Int {
        if g711 != nil { return try g711!.decode(lost: samplesPerChannel, into: pcm) }
        return try other!.decode(lost: samplesPerChannel, into: pcm)
    }

    mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer, samplesPerChannel: Int, into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        if g711 != nil { return try g711!.decodeFEC(from: nextPayload, samplesPerChannel: samplesPerChannel, into: pcm) }
        return try other!.decodeFEC(from: nextPayload, samplesPerChannel: samplesPerChannel, into: pcm)
    }
}
