internal import CALSA
import Glibc

/// Which way samples flow through a PCM.
enum PCMDirection {
    case capture
    case playback

    var alsaStream: snd_pcm_stream_t {
        self == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
    }
}

/// Owns one open `snd_pcm_t` (and the in-memory configuration it was opened from) and closes
/// it exactly once.
struct PCMHandle: ~Copyable {
    /// The open PCM.
    let pcm: OpaquePointer
    /// The configuration tree a `.configuration` source was loaded into; ALSA may refer to it
    /// until the PCM is closed, so it lives as long as the handle.
    private let localConfiguration: OpaquePointer?
    /// The device name for error messages.
    let deviceName: String

    /// Opens `source` for `direction` in blocking mode.
    init(source: AudioDeviceSource, direction: PCMDirection) throws(AudioDeviceError) {
        deviceName = source.description
        var opened: OpaquePointer?
        switch source {
        case let .named(name):
            let status = snd_pcm_open(&opened, name, direction.alsaStream, 0)
            guard status >= 0, let opened else {
                throw AudioDeviceError(device: name, operation: "snd_pcm_open", code: status)
            }
            pcm = opened
            localConfiguration = nil
        case let .configuration(name, text):
            let configuration = try Self.loadConfiguration(text, device: name)
            let status = snd_pcm_open_lconf(&opened, name, direction.alsaStream, 0, configuration)
            guard status >= 0, let opened else {
                snd_config_delete(configuration)
                throw AudioDeviceError(device: name, operation: "snd_pcm_open_lconf", code: status)
            }
            pcm = opened
            localConfiguration = configuration
        }
    }

    deinit {
        snd_pcm_close(pcm)
        if let localConfiguration {
            snd_config_delete(localConfiguration)
        }
    }

    /// Parses ALSA configuration text into a new top-level configuration node.
    private static func loadConfiguration(_ text: String, device: String) throws(AudioDeviceError) -> OpaquePointer {
        var top: OpaquePointer?
        var status = snd_config_top(&top)
        guard status >= 0, let top else {
            throw AudioDeviceError(device: device, operation: "snd_config_top", code: status)
        }
        var input: OpaquePointer?
        status = text.withCString { snd_input_buffer_open(&input, $0, strlen($0)) }
        guard status >= 0, let input else {
            snd_config_delete(top)
            throw AudioDeviceError(device: device, operation: "snd_input_buffer_open", code: status)
        }
        status = snd_config_load(top, input)
        snd_input_close(input)
        guard status >= 0 else {
            snd_config_delete(top)
            throw AudioDeviceError(device: device, operation: "loading the ALSA configuration", code: status)
        }
        return top
    }

    /// Sets interleaved S16_LE access at the configured rate, channels, period and buffer, and
    /// returns the period and buffer sizes ALSA granted, in frames.
    func configure(_ configuration: AudioStreamConfiguration, direction: PCMDirection) throws(AudioDeviceError) -> (period: Int, buffer: Int) {
        guard configuration.channels >= 1, configuration.sampleRate > 0, configuration.framesPerPeriod > 0,
            configuration.bufferPeriods >= 2
        else {
            throw AudioDeviceError(
                device: deviceName, operation: "configure",
                message: "invalid configuration \(configuration) (need channels ≥ 1, a period of at least one frame, bufferPeriods ≥ 2)"
            )
        }
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_rate_resample(pcm, hardware, configuration.allowsResampling ? 1 : 0), "set resampling")
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "set interleaved access")
        try check(snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_S16_LE), "set format S16_LE")
        try check(snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(configuration.channels)), "set \(configuration.channels) channels")
        var rate = UInt32(configuration.sampleRate)
        try check(snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, nil), "set rate \(configuration.sampleRate)")
        guard Int(rate) == configuration.sampleRate else {
            throw AudioDeviceError(
                device: deviceName, operation: "set rate",
                message: "asked for \(configuration.sampleRate) Hz, the device offers \(rate) Hz"
            )
        }
        var period = snd_pcm_uframes_t(configuration.framesPerPeriod)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, &direction), "set period size")
        var buffer = period * snd_pcm_uframes_t(configuration.bufferPeriods)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &buffer), "set buffer size")
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params")
        try configureSoftware(period: period)
        return (Int(period), Int(buffer))
    }

    /// Wakes the reader or writer every period and starts playback as soon as one period is queued.
    private func configureSoftware(period: snd_pcm_uframes_t) throws(AudioDeviceError) {
        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "snd_pcm_sw_params_current")
        try check(snd_pcm_sw_params_set_avail_min(pcm, software, period), "set avail_min")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, software, period), "set start threshold")
        try check(snd_pcm_sw_params(pcm, software), "snd_pcm_sw_params")
    }

    /// Throws an ``AudioDeviceError`` naming `operation` when an ALSA call returned a negative status.
    func check(_ status: Int32, _ operation: String) throws(AudioDeviceError) {
        if status < 0 {
            throw AudioDeviceError(device: deviceName, operation: operation, code: status)
        }
    }

    /// Recovers from an overrun/underrun (`-EPIPE`), a suspend (`-ESTRPIPE`) or an interrupted
    /// call (`-EINTR`); rethrows anything else.
    func recover(from status: Int, operation: String) throws(AudioDeviceError) -> PCMRecovery {
        let code = Int32(truncatingIfNeeded: status)
        let kind: PCMRecovery
        switch -code {
        case EPIPE: kind = .xrun
        case ESTRPIPE: kind = .suspend
        case EINTR: kind = .interrupted
        default: throw AudioDeviceError(device: deviceName, operation: operation, code: code)
        }
        try check(snd_pcm_recover(pcm, code, 1), "recovering from \(kind) during \(operation)")
        return kind
    }
}

/// What a PCM recovered from.
enum PCMRecovery {
    case xrun
    case suspend
    case interrupted
}
