import Foundation

/// Locates the reference data that lives beside the project in `../shared`.
///
/// Tests read known-answer vectors, captures and traces from there. When the folder is
/// missing, every lookup throws ``SharedDataError`` naming the path it expected, so a test
/// fails loudly instead of passing on no data.
public enum SharedData {
    /// The `shared` folder: `$MEDIA_SHARED_DIR` when set, else `../shared` beside the package root.
    public static var root: URL {
        if let override = ProcessInfo.processInfo.environment["MEDIA_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
    }

    /// The package root, found from this source file's path.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // TestSupport
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
    }

    /// A file or folder under `shared/vectors`, which must exist.
    public static func vector(_ relativePath: String) throws -> URL {
        try existing("vectors/" + relativePath)
    }

    /// A file under `shared/captures`, which must exist.
    public static func capture(_ name: String) throws -> URL {
        try existing("captures/" + name)
    }

    /// A file under `shared/traces`, which must exist.
    public static func trace(_ name: String) throws -> URL {
        try existing("traces/" + name)
    }

    /// Every capture file (`.pcap` and `.pcapng`) in `shared/captures`, sorted by name.
    public static func allCaptures() throws -> [URL] {
        let folder = try existing("captures")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// The lines of a text file under `shared/vectors`.
    public static func vectorLines(_ relativePath: String) throws -> [Substring] {
        let text = try String(contentsOf: vector(relativePath), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline)
    }

    private static func existing(_ relativePath: String) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SharedDataError(missingPath: url.path)
        }
        return url
    }
}

/// The shared reference data a test asked for is not where it should be.
public struct SharedDataError: Error, CustomStringConvertible {
    /// The absolute path that was looked for.
    public let missingPath: String

    /// A message naming the missing path and how to provide it.
    public var description: String {
        "shared reference data not found at \(missingPath); check out ../shared beside the project or set MEDIA_SHARED_DIR"
    }
}
