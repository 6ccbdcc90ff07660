internal import COpus

// The libopus states, each owned by a non-copyable value that destroys it exactly once.
//
// `OpusEncoder` and `OpusDecoder` are final classes because ``AudioEncoder`` and ``AudioDecoder``
// are not `~Copyable` protocols, so a non-copyable type cannot conform to them. Each class stores
// one of these handles; the handle cannot be copied out of it, and its `deinit` runs once, when the
// class instance is released.

/// Owns one `OpusEncoder *`.
struct OpusEncoderHandle: ~Copyable {
    /// The libopus encoder state; valid until `deinit`.
    let pointer: OpaquePointer

    /// Creates an encoder (`opus_encoder_create`).
    init(sampleRate: Int, channels: Int, application: Int32) throws(CodecError) {
        var status = OPUS_OK
        let created = opus_encoder_create(Int32(sampleRate), Int32(channels), application, &status)
        guard let created, status == OPUS_OK else {
            opus_encoder_destroy(created)
            throw OpusLibrary.error(status == OPUS_OK ? OPUS_ALLOC_FAIL : status, call: "opus_encoder_create")
        }
        pointer = created
    }

    deinit {
        opus_encoder_destroy(pointer)
    }
}

/// Owns one `OpusDecoder *`.
struct OpusDecoderHandle: ~Copyable {
    /// The libopus decoder state; valid until `deinit`.
    let pointer: OpaquePointer

    /// Creates a decoder (`opus_decoder_create`).
    init(sampleRate: Int, channels: Int) throws(CodecError) {
        var status = OPUS_OK
        let created = opus_decoder_create(Int32(sampleRate), Int32(channels), &status)
        guard let created, status == OPUS_OK else {
            opus_decoder_destroy(created)
            throw OpusLibrary.error(status == OPUS_OK ? OPUS_ALLOC_FAIL : status, call: "opus_decoder_create")
        }
        pointer = created
    }

    deinit {
        opus_decoder_destroy(pointer)
    }
}
