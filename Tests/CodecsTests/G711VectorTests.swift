import Codecs
import Testing
import TestSupport

/// G.711 against the ITU-T G.191 STL tables in `Tests/Fixtures/vectors/g711`.
@Suite("G.711 against the ITU-T G.191 reference")
struct G711VectorTests {
    /// The 65 536 codes of an encode table file, in input order -32768 ... 32767.
    static func encodeTable(_ name: String) throws -> [UInt8] {
        var codes: [UInt8] = []
        codes.reserveCapacity(65_536)
        for line in try Fixtures.vectorLines("g711/" + name) where !line.hasPrefix("#") {
            let hex = Array(line.utf8)
            try #require(hex.count == 64, "line of \(hex.count) hex digits in \(name)")
            for pair in stride(from: 0, to: hex.count, by: 2) {
                let code = try #require(UInt8(String(decoding: hex[pair..<pair + 2], as: UTF8.self), radix: 16))
                codes.append(code)
            }
        }
        try #require(codes.count == 65_536)
        return codes
    }

    /// The decode table: for each code, the µ-law and the A-law sample.
    static func decodeTable() throws -> (muLaw: [Int16], aLaw: [Int16]) {
        var muLaw = [Int16](repeating: 0, count: 256)
        var aLaw = [Int16](repeating: 0, count: 256)
        var seen = 0
        for line in try Fixtures.vectorLines("g711/itu-g191-stl-g711-decode.txt") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            try #require(fields.count == 3, "decode line '\(line)'")
            let code = try #require(Int(fields[0], radix: 16))
            muLaw[code] = try #require(Int16(fields[1]))
            aLaw[code] = try #require(Int16(fields[2]))
            seen += 1
        }
        try #require(seen == 256)
        return (muLaw, aLaw)
    }

    /// Every 16-bit sample in ascending order, as the tables list them.
    static let sweep: [Int16] = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }

    @Test(
        "all 65 536 inputs encode as G.191 does",
        arguments: [
            (G711Law.muLaw, "itu-g191-stl-g711-ulaw-encode.hex"),
            (G711Law.aLaw, "itu-g191-stl-g711-alaw-encode.hex"),
        ])
    func encodeMatchesReference(law: G711Law, file: String) throws {
        let expected = try Self.encodeTable(file)
        var batch = [UInt8](repeating: 0, count: 65_536)
        Self.sweep.withUnsafeBufferPointer { pcm in
            batch.withUnsafeMutableBufferPointer { law.encode(pcm, into: $0) }
        }
        #expect(firstMismatch(batch, expected).map { Self.sweep[$0] } == nil, "batch encode")
        #expect(firstMismatch(Self.sweep.map(law.encode), expected).map { Self.sweep[$0] } == nil, "per-sample encode")
    }

    @Test("all 256 codes decode as G.191 does", arguments: G711Law.allCases)
    func decodeMatchesReference(law: G711Law) throws {
        let tables = try Self.decodeTable()
        let expected = law == .muLaw ? tables.muLaw : tables.aLaw
        let codes = (0...255).map { UInt8($0) }
        var batch = [Int16](repeating: 0, count: 256)
        codes.withUnsafeBufferPointer { codes in
            batch.withUnsafeMutableBufferPointer { law.decode(codes, into: $0) }
        }
        #expect(firstMismatch(batch, expected) == nil)
        #expect(firstMismatch(codes.map(law.decode), expected) == nil)
    }

    @Test("a round trip of the sweep gives the reference's encode-then-decode result", arguments: G711Law.allCases)
    func sweepRoundTripMatchesReference(law: G711Law) throws {
        let encoded = try Self.encodeTable(law == .muLaw ? "itu-g191-stl-g711-ulaw-encode.hex" : "itu-g191-stl-g711-alaw-encode.hex")
        let tables = try Self.decodeTable()
        let decodeTable = law == .muLaw ? tables.muLaw : tables.aLaw
        let expected = encoded.map { decodeTable[Int($0)] }
        var codes = [UInt8](repeating: 0, count: 65_536)
        var decoded = [Int16](repeating: 0, count: 65_536)
        Self.sweep.withUnsafeBufferPointer { pcm in
            codes.withUnsafeMutableBufferPointer { law.encode(pcm, into: $0) }
        }
        codes.withUnsafeBufferPointer { codes in
            decoded.withUnsafeMutableBufferPointer { law.decode(codes, into: $0) }
        }
        #expect(firstMismatch(decoded, expected) == nil)
        // Re-encoding a decoded sample gives its code back, except µ-law's "negative zero" 0x7F,
        // which decodes to 0 and so re-encodes as 0xFF.
        let reencoded = decoded.map(law.encode).enumerated().map { $1 == 0xFF && codes[$0] == 0x7F ? 0x7F : $1 }
        #expect(firstMismatch(reencoded, codes) == nil)
    }

    @Test("silence codes and names")
    func constants() {
        #expect(G711Law.muLaw.silenceCode == 0xFF)
        #expect(G711Law.aLaw.silenceCode == 0xD5)
        #expect(G711Law.muLaw.encodingName == "PCMU" && G711Law.muLaw.staticPayloadType == 0)
        #expect(G711Law.aLaw.encodingName == "PCMA" && G711Law.aLaw.staticPayloadType == 8)
    }

    /// The first index where two equally long arrays differ, so a failure prints one position
    /// instead of 65 536 values.
    func firstMismatch<Element: Equatable>(_ actual: [Element], _ expected: [Element]) -> Int? {
        guard actual.count == expected.count else { return -1 }
        return actual.indices.first { actual[$0] != expected[$0] }
    }
}
