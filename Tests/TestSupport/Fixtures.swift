import Foundation

/// Locates the reference data the tests use, kept in the repository under `Tests/Fixtures`
/// (each file's source and licence are in `Tests/Fixtures/PROVENANCE.md`).
///
/// Tests read known-answer vectors, captures and traces from there. When a file is missing,
/// every lookup throws ``FixtureError`` naming the path it expected, so a test fails loudly
/// instead of passing on no data.
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static var root: URL {
        packageRoot.appendingPathComponent("Tests/Fixtures", isDirectory: true)
    }

    /// The package root, found from this source file's path.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // TestSupport
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
    }

    /// A file or folder under `Tests/Fixtures/vectors`, which must exist.
    public static func vector(_ relativePath: String) throws -> URL {
        try existing("vectors/" + relativePath)
    }

    /// A file under `Tests/Fixtures/captures`, which must exist.
    public static func capture(_ name: String) throws -> URL {
        try existing("captures/" + name)
    }

    /// A file under `Tests/Fixtures/traces`, which must exist.
    public static func trace(_ name: String) throws -> URL {
        try existing("traces/" + name)
    }

    /// The text of an SDP body of a real peer under `Tests/Fixtures/sdp` (see its README).
    public static func sdp(_ name: String) throws -> String {
        try String(contentsOf: existing("sdp/" + name), encoding: .utf8)
    }

    /// Every capture file (`.pcap` and `.pcapng`) in `Tests/Fixtures/captures`, sorted by name.
    public static func allCaptures() throws -> [URL] {
        let folder = try existing("captures")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// The lines of a text file under `Tests/Fixtures/vectors`.
    public static func vectorLines(_ relativePath: String) throws -> [Substring] {
        let text = try String(contentsOf: vector(relativePath), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline)
    }

    private static func existing(_ relativePath: String) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureError(missingPath: url.path)
        }
        return url
    }
}

/// The fixture a test asked for is not where it should be.
public struct FixtureError: Error, CustomStringConvertible {
    /// The absolute path that was looked for.
    public let missingPath: String

    /// A message naming the missing path and how to provide it.
    public var description: String {
        "test fixture not found at \(missingPath) (fixtures live in Tests/Fixtures of the repository)"
    }
}
