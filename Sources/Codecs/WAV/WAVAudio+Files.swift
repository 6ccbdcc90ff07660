import Foundation

extension WAVAudio {
    /// Reads and parses the WAV file at `path`.
    public init(contentsOfFile path: String) throws(WAVError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .fileSystem(path: path, reason: error.localizedDescription)
        }
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        let parsed = data.withUnsafeBytes { bytes in Result { () throws(WAVError) in try WAVAudio(parsing: bytes) } }
        self = try parsed.get()
    }

    /// Writes this audio as a canonical WAV file at `path`, replacing any file there.
    public func write(toFile path: String) throws(WAVError) {
        let bytes = try serialized()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .fileSystem(path: path, reason: error.localizedDescription)
        }
    }
}
