internal import COpus

/// Turns libopus status codes into ``CodecError/library(call:code:message:)``.
enum OpusLibrary {
    /// The error for a negative libopus status `code` returned by `call`, with libopus' own message.
    static func error(_ code: Int32, call: String) -> CodecError {
        .library(call: call, code: code, message: String(cString: opus_strerror(code)))
    }

    /// Throws when `code` is a libopus error (negative); `call` is only built on failure.
    static func check(_ code: Int32, call: @autoclosure () -> String) throws(CodecError) {
        if code < 0 {
            throw error(code, call: call())
        }
    }

    /// The sample rates libopus encodes and decodes at.
    static let sampleRates: Set<Int> = [8000, 12_000, 16_000, 24_000, 48_000]

    /// Throws unless `format` is one libopus accepts: 8/12/16/24/48 kHz, mono or stereo.
    static func validate(_ format: AudioFormat) throws(CodecError) {
        guard sampleRates.contains(format.sampleRate) else {
            throw .unsupportedParameter("Opus sample rate \(format.sampleRate) Hz (expected 8000, 12000, 16000, 24000 or 48000)")
        }
        guard format.channels == 1 || format.channels == 2 else {
            throw .unsupportedParameter("Opus channel count \(format.channels) (expected 1 or 2)")
        }
    }

    /// Throws unless `samplesPerChannel` is a length libopus can conceal or recover at `sampleRate`:
    /// a positive multiple of 2.5 ms up to 120 ms.
    static func validateConcealment(samplesPerChannel: Int, sampleRate: Int) throws(CodecError) {
        let step = sampleRate / 400
        guard samplesPerChannel > 0, samplesPerChannel % step == 0, samplesPerChannel <= step * 48 else {
            throw .unsupportedParameter(
                "Opus concealment of \(samplesPerChannel) samples at \(sampleRate) Hz (expected a multiple of \(step) samples, 2.5 ms, up to 120 ms)"
            )
        }
    }
}
