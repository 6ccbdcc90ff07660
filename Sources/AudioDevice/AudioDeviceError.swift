internal import CALSA

/// An ALSA call failed on a device: which device, which operation, and ALSA's own words.
public struct AudioDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device name as opened (for example `default`, `hw:0,0`, or the name in an in-memory configuration).
    public let device: String
    /// What was being done: the ALSA function or the step (`snd_pcm_open`, `set sample rate`, …).
    public let operation: String
    /// ALSA's negative error code (a negated `errno` value), or 0 when the failure is ours.
    public let code: Int32
    /// ALSA's message for the code (`snd_strerror`) or our explanation.
    public let message: String

    /// An error from an ALSA call that returned the negative `code`.
    init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
        self.message = String(cString: snd_strerror(code))
    }

    /// An error found by us, not reported by ALSA.
    init(device: String, operation: String, message: String) {
        self.device = device
        self.operation = operation
        self.code = 0
        self.message = message
    }

    /// For example "audio device 'hw:3,0': snd_pcm_open failed: No such file or directory (-2)".
    public var description: String {
        let suffix = code == 0 ? "" : " (\(code))"
        return "audio device '\(device)': \(operation) failed: \(message)\(suffix)"
    }
}
