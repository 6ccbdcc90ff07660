import AudioDevice
import Testing

/// ALSA's `null` device, device listing, and the errors a softphone shows its user.
@Suite struct DeviceTests {
    @Test func nullDeviceAcceptsPlaybackAndCapture() throws {
        let configuration = AudioStreamConfiguration(sampleRate: 48000, channels: 1)
        let playback = try AudioPlayback(source: .named("null"), configuration: configuration)
        let frame = [Int16](repeating: 100, count: configuration.framesPerPeriod)
        for _ in 0..<10 {
            try frame.withUnsafeBufferPointer { try playback.write($0) }
        }
        #expect(playback.statistics.frames == 10 * configuration.framesPerPeriod)

        let capture = try AudioCapture(source: .named("null"), configuration: configuration)
        var buffer = [Int16](repeating: 0, count: configuration.framesPerPeriod)
        try buffer.withUnsafeMutableBufferPointer { try capture.read(into: $0) }
        #expect(capture.statistics.frames == configuration.framesPerPeriod)
    }

    @Test func catalogListsTheNullDevice() throws {
        let devices = try AudioDeviceCatalog.devices()
        let null = try #require(devices.first { $0.name == "null" })
        #expect(null.supportsPlayback)
        #expect(null.supportsCapture)
    }

    @Test func unknownDeviceErrorNamesDeviceAndCall() {
        let error = #expect(throws: AudioDeviceError.self) {
            _ = try AudioPlayback(source: .named("hw:97,3"))
        }
        #expect(error?.subject == "audio device 'hw:97,3'")
        #expect(error?.operation == "snd_pcm_open")
        #expect(error.map { $0.code < 0 } == true)
        #expect(error?.description.hasPrefix("snd_pcm_open audio device 'hw:97,3' failed:") == true)
    }

    @Test func malformedConfigurationTextIsReported() {
        let error = #expect(throws: AudioDeviceError.self) {
            _ = try AudioCapture(source: .configuration(name: "broken", text: "pcm.broken { type "))
        }
        #expect(error?.subject == "audio device 'broken'")
        #expect(error?.operation == "loading the ALSA configuration")
    }

    @Test func invalidStreamConfigurationIsRefused() {
        let error = #expect(throws: AudioDeviceError.self) {
            _ = try AudioPlayback(source: .named("null"), configuration: AudioStreamConfiguration(channels: 0))
        }
        #expect(error?.operation == "configure")
    }
}
