/// Where an ALSA stream comes from: a device name known to the system configuration, or a
/// device defined by an in-memory ALSA configuration (no files touched, nothing installed).
public enum AudioDeviceSource: Sendable, Hashable, CustomStringConvertible {
    /// A PCM name from the system configuration: `default`, `null`, `pulse`, `hw:0,0`, `plughw:1`, …
    case named(String)
    /// The PCM called `name` in `configuration`, ALSA configuration text such as
    /// `pcm.name { type file … }`, loaded with `snd_pcm_open_lconf`.
    case configuration(name: String, text: String)

    /// ALSA's `file` plugin over its `null` device: playback is recorded byte for byte to
    /// `recordingPath` (raw interleaved S16_LE), capture reads from `sourcePath` when given.
    /// This goes through ALSA itself, which is how the tests run on machines without a sound card.
    public static func file(recordingPath: String, sourcePath: String? = nil) -> AudioDeviceSource {
        var text = "pcm.mediafile { type file slave.pcm { type null } format \"raw\" file \(quoted(recordingPath))"
        if let sourcePath {
            text += " infile \(quoted(sourcePath))"
        }
        text += " }"
        return .configuration(name: "mediafile", text: text)
    }

    /// The name used in errors and logs.
    public var description: String {
        switch self {
        case let .named(name): name
        case let .configuration(name, _): name
        }
    }

    /// A string literal in ALSA's configuration syntax.
    private static func quoted(_ value: String) -> String {
        var escaped = ""
        for character in value {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"" + escaped + "\""
    }
}
