internal import CALSA

/// One PCM device the system's ALSA configuration offers, as an audio route to choose.
public struct AudioDeviceInfo: Sendable, Hashable {
    /// The name to open with ``AudioDeviceSource/named(_:)`` (`default`, `null`, `hw:CARD=…`, …).
    public let name: String
    /// ALSA's human-readable description, possibly several lines.
    public let description: String
    /// Whether the device can capture.
    public let supportsCapture: Bool
    /// Whether the device can play.
    public let supportsPlayback: Bool
}

/// The PCM devices known to ALSA (its "name hints"), for a softphone's audio route picker.
public enum AudioDeviceCatalog {
    /// Every PCM device ALSA lists, in ALSA's order.
    /// - Throws: ``AudioDeviceError`` when ALSA cannot list devices.
    public static func devices() throws(AudioDeviceError) -> [AudioDeviceInfo] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        let status = snd_device_name_hint(-1, "pcm", &hints)
        guard status >= 0, let hints else {
            throw AudioDeviceError(device: "*", operation: "snd_device_name_hint", code: status)
        }
        defer { snd_device_name_free_hint(hints) }
        var devices: [AudioDeviceInfo] = []
        var cursor = hints
        while let hint = cursor.pointee {
            defer { cursor += 1 }
            guard let name = value(of: "NAME", in: hint) else { continue }
            // IOID is absent when the device works both ways.
            let direction = value(of: "IOID", in: hint)
            devices.append(
                AudioDeviceInfo(
                    name: name,
                    description: value(of: "DESC", in: hint) ?? "",
                    supportsCapture: direction == nil || direction == "Input",
                    supportsPlayback: direction == nil || direction == "Output"
                ))
        }
        return devices
    }

    /// The named field of a hint; ALSA allocates the string and we free it.
    private static func value(of field: String, in hint: UnsafeMutableRawPointer) -> String? {
        guard let raw = snd_device_name_get_hint(hint, field) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }
}
