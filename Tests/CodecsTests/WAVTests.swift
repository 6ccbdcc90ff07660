import Codecs
import Foundation
import Testing
import TestSupport

/// WAV reading and writing: round trips, tolerated oddities, every error, and sox as an oracle.
@Suite("WAV files")
struct WAVTests {
    /// A little-endian WAV file assembled chunk by chunk, so tests can build odd files.
    struct Builder {
        var chunks: [UInt8] = []

        mutating func chunk(_ id: String, _ body: [UInt8], declaredSize: Int? = nil, pad: Bool = true) {
            chunks += Array(id.utf8) + le32(declaredSize ?? body.count) + body
            if pad && body.count % 2 == 1 { chunks.append(0) }
        }

        func file(form: String = "WAVE") -> [UInt8] {
            Array("RIFF".utf8) + le32(4 + chunks.count) + Array(form.utf8) + chunks
        }
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16((value >> 16) & 0xFFFF) }

    /// A `fmt ` body: tag, channels, rate, byte rate, block align, bits.
    static func fmt(tag: Int = 1, channels: Int = 1, rate: Int = 8000, bits: Int = 16, blockAlign: Int? = nil) -> [UInt8] {
        let align = blockAlign ?? channels * bits / 8
        return le16(tag) + le16(channels) + le32(rate) + le32(rate * align) + le16(align) + le16(bits)
    }

    /// A `WAVE_FORMAT_EXTENSIBLE` `fmt ` body whose sub-format is `subFormat`.
    static func extensibleFmt(channels: Int, rate: Int, subFormat: Int) -> [UInt8] {
        let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        return fmt(tag: 0xFFFE, channels: channels, rate: rate) + le16(22) + le16(16) + le32(3) + le16(subFormat) + guidTail
    }

    static func pcmBytes(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
    }

    static let ramp: [Int16] = (0..<100).map { Int16($0 * 600 - 30_000) }

    @Test("write then read gives the same audio", arguments: [(8000, 1), (16000, 2), (44100, 2), (11025, 1)])
    func roundTrip(rate: Int, channels: Int) throws {
        let audio = WAVAudio(format: AudioFormat(sampleRate: rate, channels: channels), samples: Self.ramp)
        let bytes = try audio.serialized()
        #expect(bytes.count == 44 + 200)
        #expect(try WAVAudio(parsing: bytes) == audio)
        #expect(audio.frameCount == 100 / channels)
    }

    @Test("formats the reader would refuse are not written")
    func writeErrors() {
        let cases: [(WAVAudio, WAVError)] = [
            (WAVAudio(format: AudioFormat(sampleRate: 8000, channels: 3), samples: [1, 2, 3]), .unsupportedEncoding("3 channels")),
            (WAVAudio(format: AudioFormat(sampleRate: 0, channels: 1), samples: [1]), .invalidFormat("sample rate 0")),
            (
                WAVAudio(format: AudioFormat(sampleRate: 8000, channels: 2), samples: [1, 2, 3]),
                .invalidFormat("3 samples do not make whole frames of 2 channels")
            ),
        ]
        for (audio, expected) in cases {
            #expect(throws: expected) { try audio.serialized() }
        }
    }

    @Test("files round-trip through the file system")
    func fileRoundTrip() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let audio = WAVAudio(format: AudioFormat(sampleRate: 8000, channels: 1), samples: Self.ramp)
        try audio.write(toFile: path)
        #expect(try WAVAudio(contentsOfFile: path) == audio)
        #expect(throws: WAVError.self) { try WAVAudio(contentsOfFile: path + ".missing") }
        #expect(throws: WAVError.self) { try audio.write(toFile: "/nonexistent-folder/x.wav") }
    }

    @Test("LIST and fact chunks, odd chunk padding and WAVE_FORMAT_EXTENSIBLE PCM are read")
    func toleratedOddities() throws {
        var builder = Builder()
        builder.chunk("LIST", Array("INFOISFT\u{5}\0\0\0abcde".utf8))  // odd size, padded
        builder.chunk("fmt ", Self.extensibleFmt(channels: 2, rate: 48000, subFormat: 1))
        builder.chunk("fact", Self.le32(50))
        builder.chunk("data", Self.pcmBytes(Self.ramp))
        builder.chunk("LIST", [1, 2, 3])  // after the data: never looked at
        let audio = try WAVAudio(parsing: builder.file())
        #expect(audio.format == AudioFormat(sampleRate: 48000, channels: 2))
        #expect(audio.samples == Self.ramp)
    }

    @Test("a trailing partial sample frame and a missing final pad byte are tolerated")
    func partialFrames() throws {
        var builder = Builder()
        builder.chunk("fmt ", Self.fmt(channels: 2))
        builder.chunk("data", Self.pcmBytes(Self.ramp) + [0x01, 0x02, 0x03], pad: false)
        let audio = try WAVAudio(parsing: builder.file())
        #expect(audio.samples == Self.ramp)
    }

    /// A file with a plain `fmt ` chunk built from `fmt` and the ramp as data.
    static func file(fmt body: [UInt8]) -> [UInt8] {
        var builder = Builder()
        builder.chunk("fmt ", body)
        builder.chunk("data", pcmBytes(ramp))
        return builder.file()
    }

    @Test("every malformed or unsupported file gives its typed error")
    func errors() throws {
        let good = Self.file(fmt: Self.fmt())
        var cases: [(String, [UInt8], WAVError)] = [
            ("empty", [], .truncated(what: "RIFF header", offset: 0, needed: 4, available: 0)),
            ("header cut", Array(good[..<10]), .truncated(what: "RIFF form type", offset: 8, needed: 4, available: 2)),
            ("not RIFF", Array("RIFX".utf8) + good.dropFirst(4), .notWAVE("starts with 'RIFX', not 'RIFF'")),
            ("not WAVE", Self.Builder().file(form: "AVI "), .notWAVE("RIFF form type is 'AVI ', not 'WAVE'")),
            ("no chunks", Self.Builder().file(), .missingChunk("data")),
            ("float", Self.file(fmt: Self.fmt(tag: 3, bits: 32)), .unsupportedEncoding("IEEE float")),
            ("A-law", Self.file(fmt: Self.fmt(tag: 6, bits: 8)), .unsupportedEncoding("A-law")),
            ("µ-law", Self.file(fmt: Self.fmt(tag: 7, bits: 8)), .unsupportedEncoding("µ-law")),
            ("ADPCM", Self.file(fmt: Self.fmt(tag: 2, bits: 4, blockAlign: 256)), .unsupportedEncoding("format tag 0x2")),
            ("24-bit", Self.file(fmt: Self.fmt(bits: 24)), .unsupportedEncoding("24-bit PCM")),
            ("8-bit", Self.file(fmt: Self.fmt(bits: 8)), .unsupportedEncoding("8-bit PCM")),
            ("6 channels", Self.file(fmt: Self.fmt(channels: 6)), .unsupportedEncoding("6 channels")),
            ("0 channels", Self.file(fmt: Self.fmt(channels: 0)), .invalidFormat("0 channels")),
            ("rate 0", Self.file(fmt: Self.fmt(rate: 0)), .invalidFormat("sample rate 0")),
            (
                "block align", Self.file(fmt: Self.fmt(channels: 2, blockAlign: 2)),
                .invalidFormat("block align 2 for 2 channel(s) of 16 bits (expected 4)")
            ),
            ("short fmt", Self.file(fmt: Array(Self.fmt()[..<14])), .invalidFormat("fmt chunk at byte 20 has 14 bytes, at least 16 needed")),
            (
                "extensible float", Self.file(fmt: Self.extensibleFmt(channels: 1, rate: 8000, subFormat: 3)),
                .unsupportedEncoding("IEEE float")
            ),
            (
                "extensible too short", Self.file(fmt: Array(Self.extensibleFmt(channels: 1, rate: 8000, subFormat: 1)[..<24])),
                .invalidFormat("WAVE_FORMAT_EXTENSIBLE with a 22-byte extension in a 24-byte chunk (22 and 40 needed)")
            ),
        ]
        var noFormat = Self.Builder()
        noFormat.chunk("data", Self.pcmBytes(Self.ramp))
        cases.append(("data before fmt", noFormat.file(), .missingChunk("fmt ")))
        var longData = Self.Builder()
        longData.chunk("fmt ", Self.fmt())
        longData.chunk("data", Self.pcmBytes(Self.ramp), declaredSize: 1000)
        cases.append(("data beyond end", longData.file(), .dataChunkBeyondEnd(offset: 36, declaredBytes: 1000, availableBytes: 200)))
        var longList = Self.Builder()
        longList.chunk("LIST", [1, 2], declaredSize: 500)
        cases.append(("chunk beyond end", longList.file(), .truncated(what: "chunk 'LIST'", offset: 20, needed: 500, available: 2)))
        cases.append(("cut chunk header", Array(good[..<40]), .truncated(what: "chunk 'data' size", offset: 40, needed: 4, available: 0)))
        cases.append(("cut fmt", Array(good[..<30]), .truncated(what: "fmt chunk", offset: 20, needed: 16, available: 10)))

        for (name, bytes, expected) in cases {
            #expect(throws: expected, "\(name)") { try WAVAudio(parsing: bytes) }
        }
        #expect(WAVError.dataChunkBeyondEnd(offset: 36, declaredBytes: 1000, availableBytes: 200).description.contains("1000"))
    }

    @Test("sox reads what we write and we read what sox writes")
    func soxInterop() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wav-sox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.wav").path
        let stereo = WAVAudio(format: AudioFormat(sampleRate: 22050, channels: 2), samples: Self.ramp)
        try stereo.write(toFile: ours)
        let info = try ExternalTool.run(["soxi", ours]).standardOutput
        #expect(info.contains("Channels       : 2") && info.contains("Sample Rate    : 22050"))
        #expect(info.contains("50 samples"))

        let theirs = folder.appendingPathComponent("theirs.wav").path
        let raw = folder.appendingPathComponent("theirs.raw").path
        try ExternalTool.run(["sox", "-n", "-r", "16000", "-c", "2", "-b", "16", theirs, "synth", "0.05", "sine", "440", "sine", "660"])
        try ExternalTool.run(["sox", theirs, "-t", "raw", "-e", "signed", "-b", "16", "-L", raw])
        let audio = try WAVAudio(contentsOfFile: theirs)
        let rawBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        #expect(audio.format == AudioFormat(sampleRate: 16000, channels: 2))
        #expect(Self.pcmBytes(audio.samples) == rawBytes)
        #expect(audio.frameCount == 800)
    }
}
