import Capture
import Foundation
import Testing
import TestSupport

/// A classic pcap file on disk is read from a memory mapping; the same bytes through a named
/// pipe (which cannot be mapped) are read by libpcap alone. Both must give the same frames,
/// and the same error at the same frame, for files libpcap passes on unchanged and for files
/// where the mapping hands over to libpcap.
@Suite("Capture reading from a mapping")
struct MappedReadingTests {
    /// Every frame as an owned record, and how reading ended.
    struct Reading {
        var frames: [CaptureRecord] = []
        var error: CaptureError?
    }

    static func read(_ path: String) -> Reading {
        var reading = Reading()
        do {
            var reader = try CaptureReader(path: path)
            try reader.forEachFrame { frame in
                #expect(frame.number == reading.frames.count + 1)
                reading.frames.append(frame.record)
            }
        } catch {
            reading.error = error
        }
        return reading
    }

    /// `file` read from a regular file, and then the same bytes written through a named pipe
    /// at the same path (so that errors name the same file).
    static func readBothWays(_ file: [UInt8]) throws -> (mapped: Reading, piped: Reading) {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(file, to: "capture.pcap")
        let mapped = read(path)
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        // A reader that stops at an error closes the pipe before everything is written.
        signal(SIGPIPE, SIG_IGN)
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: path) {
                try? handle.write(contentsOf: file)
                try? handle.close()
            }
            written.signal()
        }
        writer.start()
        let piped = read(path)
        written.wait()
        return (mapped, piped)
    }

    /// Expects the same frames and the same ending, naming the first frame that differs.
    static func expectSame(_ mapped: Reading, _ piped: Reading, _ name: String) {
        #expect(mapped.frames.count == piped.frames.count, "\(name)")
        let firstDifference = mapped.frames.indices.first { $0 < piped.frames.count && mapped.frames[$0] != piped.frames[$0] }
        #expect(firstDifference == nil, "\(name): frame \(firstDifference.map { $0 + 1 } ?? 0) differs")
        #expect(mapped.error == piped.error, "\(name)")
    }

    /// The little-endian 32-bit word at `offset` replaced by `value`.
    static func replacingWord(in file: [UInt8], at offset: Int, with value: UInt32) -> [UInt8] {
        var changed = file
        changed.replaceSubrange(offset..<(offset + 4), with: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        return changed
    }

    @Test(arguments: ["sipp_dtmf_2833_1.pcap", "sipp_g711a.pcap", "ws_sip-rtp-opus.pcap", "ws_MagicJack_short_call.pcap"])
    func fixtureFramesAreLibpcapsFrames(_ name: String) throws {
        let file = try HostileFileTests.bytes(ofCapture: name)
        let (mapped, piped) = try Self.readBothWays(file)
        #expect(mapped.error == nil)
        #expect(!mapped.frames.isEmpty)
        Self.expectSame(mapped, piped, name)
    }

    /// Records libpcap truncates, rejects or finds cut short, timestamps it reads as signed,
    /// nanosecond files, and a file only libpcap reads (format 2.3).
    @Test func unusualRecordsAreLibpcapsFrames() throws {
        let file = try HostileFileTests.bytes(ofCapture: "sipp_g711a.pcap")
        let starts = [24] + HostileFileTests.classicRecordEnds(file).dropLast()
        let variants: [(String, [UInt8])] = [
            ("snapshot length 100", Self.replacingWord(in: file, at: 16, with: 100)),
            ("captured beyond the wire length", Self.replacingWord(in: file, at: starts[5] + 12, with: 20)),
            ("capture length past the limit", Self.replacingWord(in: file, at: starts[20] + 8, with: 0xFF_FFFF)),
            ("negative seconds", Self.replacingWord(in: file, at: starts[3], with: 0x8000_0001)),
            ("negative fraction", Self.replacingWord(in: file, at: starts[4] + 4, with: 0xFFFF_FFF0)),
            ("nanosecond magic", Self.replacingWord(in: file, at: 0, with: 0xA1B2_3C4D)),
            ("format 2.3", Self.replacingWord(in: file, at: 4, with: 0x0003_0002)),
            ("cut inside a record", Array(file.prefix(starts[30] + 16 + 7))),
            ("cut inside a record header", Array(file.prefix(starts[30] + 5))),
            ("trailing bytes", file + [1, 2, 3]),
            ("header only", Array(file.prefix(24))),
        ]
        for (name, variant) in variants {
            let (mapped, piped) = try Self.readBothWays(variant)
            Self.expectSame(mapped, piped, name)
        }
    }
}
