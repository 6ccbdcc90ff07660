import AudioDevice
import Foundation
import MediaSession
import Testing

extension LiveCalls {
    /// A call whose callee plays through ALSA itself: the `file` plugin over the `null` device
    /// records the playback byte for byte, and capture comes from ALSA's `null` device.
    @Suite struct MediaSessionDeviceTests {
        @Test func calleePlaysThroughALSAsFilePlugin() throws {
            let recording = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).raw")
            defer { try? FileManager.default.removeItem(at: recording) }
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { _ in
            } adjustCallee: { configuration in
                configuration.audio = .devices(capture: .named("null"), playback: .file(recordingPath: recording.path))
            }
            Thread.sleep(forTimeInterval: 1.7)
            call.stop()
            #expect(!call.calleeEvents.events.contains { if case .deviceError = $0 { true } else { false } })
            let bytes = try Data(contentsOf: recording)
            let played = stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
            #expect(played.count >= 8000)
            let correlation = TestSignal.correlation(sent: call.source, received: played, sampleRate: 8000)
            #expect(correlation > 0.9, "correlation \(correlation)")
        }

        @Test func aMissingDeviceIsReportedAndTheCallGoesOn() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { _ in
            } adjustCallee: { configuration in
                configuration.audio = .devices(capture: .named("no-such-device"), playback: .named("no-such-device"))
            }
            #expect(
                waitUntil(seconds: 1) {
                    call.calleeEvents.events.contains { if case let .deviceError(text) = $0 { text.contains("no-such-device") } else { false } }
                })
            // Still receiving, and switching to a working endpoint brings the audio back.
            let memory = MemoryAudioEndpoint(source: [], recordingCapacitySamples: 80_000)
            call.callee.switchAudio(to: .endpoint(memory))
            #expect(waitUntil(seconds: 1) { memory.recorded.contains { abs(Int($0)) > 1000 } })
            #expect(waitUntil(seconds: 1) { call.callee.statistics.rtpPacketsReceived > 20 })
            call.stop()
        }
    }
}
