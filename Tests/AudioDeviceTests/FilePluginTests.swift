import AudioDevice
import Foundation
import Testing

/// Capture and playback through ALSA's own `file` plugin (over its `null` device), which
/// records playback and feeds capture byte for byte: the real ALSA path without a sound card.
@Suite struct FilePluginTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("audiodevice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A deterministic, non-repeating test signal: `count` samples.
    static func signal(count: Int, seed: Int16) -> [Int16] {
        (0..<count).map { index in Int16(truncatingIfNeeded: index &* 7919 &+ Int(seed) &* 31) }
    }

    static func bytes(of samples: [Int16]) -> Data {
        samples.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    @Test(arguments: [(8000, 1), (16000, 1), (48000, 1), (16000, 2), (48000, 2)])
    func playbackIsRecordedByteForByte(sampleRate: Int, channels: Int) throws {
        let path = folder.appendingPathComponent("playback-\(sampleRate)-\(channels).raw").path
        let configuration = AudioStreamConfiguration(sampleRate: sampleRate, channels: channels)
        let periodSamples = configuration.framesPerPeriod * channels
        let written = Self.signal(count: periodSamples * 25, seed: Int16(channels))
        do {
            let playback = try AudioPlayback(source: .file(recordingPath: path), configuration: configuration)
            #expect(playback.periodFrames == configuration.framesPerPeriod)
            for period in 0..<25 {
                try written[period * periodSamples..<(period + 1) * periodSamples].withUnsafeBufferPointer {
                    try playback.write($0)
                }
            }
            try playback.drain()
            #expect(playback.statistics.frames == 25 * configuration.framesPerPeriod)
        }
        let recorded = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(recorded == Self.bytes(of: written))
    }

    @Test(arguments: [(8000, 1), (48000, 2)])
    func captureReadsTheSourceFileByteForByte(sampleRate: Int, channels: Int) throws {
        let source = folder.appendingPathComponent("source.raw")
        let configuration = AudioStreamConfiguration(sampleRate: sampleRate, channels: channels)
        let periodSamples = configuration.framesPerPeriod * channels
        let expected = Self.signal(count: periodSamples * 12, seed: 5)
        try Self.bytes(of: expected).write(to: source)

        let capture = try AudioCapture(
            source: .file(recordingPath: "/dev/null", sourcePath: source.path),
            configuration: configuration
        )
        var captured = [Int16](repeating: 0, count: expected.count)
        for period in 0..<12 {
            try captured[period * periodSamples..<(period + 1) * periodSamples].withUnsafeMutableBufferPointer {
                try capture.read(into: $0)
            }
        }
        #expect(captured == expected)
        #expect(capture.statistics.frames == 12 * configuration.framesPerPeriod)
    }

    @Test func aPartialFrameIsRefusedWithTheDeviceNamed() throws {
        let path = folder.appendingPathComponent("partial.raw").path
        let playback = try AudioPlayback(
            source: .file(recordingPath: path),
            configuration: AudioStreamConfiguration(sampleRate: 8000, channels: 2)
        )
        let odd = [Int16](repeating: 1, count: 3)
        let error = #expect(throws: AudioDeviceError.self) {
            try odd.withUnsafeBufferPointer { try playback.write($0) }
        }
        #expect(error?.subject == "audio device 'mediafile'")
        #expect(error?.description.contains("whole number of 2-channel frames") == true)
    }
}
