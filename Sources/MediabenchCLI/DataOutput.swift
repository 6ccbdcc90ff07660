import Foundation

/// Delivers a command's data: to standard output, or to the file an `--output` option names.
enum DataOutput {
    /// Writes `text` to the file at `path`, replacing it, or to the console's standard output
    /// when `path` is `nil`.
    static func write(_ text: String, toFile path: String?, console: Console) throws(CommandFailure) {
        guard let path else {
            console.write(text)
            return
        }
        guard let file = fopen(path, "w") else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, file)
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
