internal import CSpeexDSP

// The speexdsp states, each owned by a non-copyable value that destroys it exactly once.
// `Resampler`, `EchoCanceller` and `Preprocessor` are final classes holding one of these, so the
// preprocessor can keep the echo canceller it reads from alive by a plain reference.

/// Owns one `SpeexResamplerState *`.
struct SpeexResamplerHandle: ~Copyable {
    /// The speexdsp state; valid until `deinit`.
    let pointer: OpaquePointer

    /// Creates a resampler (`speex_resampler_init`).
    init(channels: Int, inputRate: Int, outputRate: Int, quality: Int) throws(CodecError) {
        var status: Int32 = 0
        let created = speex_resampler_init(
            UInt32(channels), UInt32(inputRate), UInt32(outputRate), Int32(quality), &status
        )
        guard let created else {
            throw .library(
                call: "speex_resampler_init", code: status,
                message: String(cString: speex_resampler_strerror(status))
            )
        }
        pointer = created
    }

    deinit {
        speex_resampler_destroy(pointer)
    }
}

/// Owns one `SpeexEchoState *`.
struct SpeexEchoHandle: ~Copyable {
    /// The speexdsp state; valid until `deinit`.
    let pointer: OpaquePointer

    /// Creates an echo canceller (`speex_echo_state_init`).
    init(frameSize: Int, filterLength: Int) throws(CodecError) {
        guard let created = speex_echo_state_init(Int32(frameSize), Int32(filterLength)) else {
            throw .library(call: "speex_echo_state_init", code: -1, message: "allocation failed")
        }
        pointer = created
    }

    deinit {
        speex_echo_state_destroy(pointer)
    }
}

/// Owns one `SpeexPreprocessState *`.
struct SpeexPreprocessHandle: ~Copyable {
    /// The speexdsp state; valid until `deinit`.
    let pointer: OpaquePointer

    /// Creates a preprocessor (`speex_preprocess_state_init`).
    init(frameSize: Int, sampleRate: Int) throws(CodecError) {
        guard let created = speex_preprocess_state_init(Int32(frameSize), Int32(sampleRate)) else {
            throw .library(call: "speex_preprocess_state_init", code: -1, message: "allocation failed")
        }
        pointer = created
    }

    deinit {
        speex_preprocess_state_destroy(pointer)
    }
}
