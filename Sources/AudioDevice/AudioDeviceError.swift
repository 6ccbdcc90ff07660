internal import CALSA
import SystemCalls

/// An ALSA call failed on a device: which device (the subject, `audio device 'NAME'`), which
/// operation, and ALSA's own words for its negative code.
public typealias AudioDeviceError = SystemCallError

extension SystemCallError {
    /// An error from an ALSA call on `device` that returned the negative `code`.
    init(device: String, operation: String, code: Int32) {
        self.init(operation: operation, subject: "audio device '\(device)'", code: code, message: String(cString: snd_strerror(code)))
    }

    /// An error on `device` found by us, not reported by ALSA.
    init(device: String, operation: String, message: String) {
        self.init(operation: operation, subject: "audio device '\(device)'", code: 0, message: message)
    }
}
