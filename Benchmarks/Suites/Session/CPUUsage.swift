import Foundation
import Glibc

/// How busy this process and the machine are, and how many threads the process runs.
enum CPUUsage {
    /// Seconds of CPU this process has used so far, user and system, on every thread (getrusage).
    static func processSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The machine's one-minute load average, or nil when unavailable.
    static func loadAverage() -> Double? {
        var load = [0.0]
        return getloadavg(&load, 1) == 1 ? load[0] : nil
    }

    /// The machine's CPU time so far from `/proc/stat`, all cores summed, in clock ticks: the
    /// total and the busy part (neither idle nor waiting for I/O); nil when unreadable.
    static func machineTicks() -> (total: Double, busy: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 5 else { return nil }
        let total = fields.reduce(0, +)
        return (total, total - fields[3] - fields[4])
    }

    /// The share of all cores' time that was busy between two ``machineTicks()`` readings, in percent.
    static func busyPercent(from start: (total: Double, busy: Double)?, to end: (total: Double, busy: Double)?) -> Double? {
        guard let start, let end, end.total > start.total else { return nil }
        return (end.busy - start.busy) * 100 / (end.total - start.total)
    }

    /// The threads of this process now (entries of `/proc/self/task`), or nil when unreadable.
    static func threadCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    /// Seconds of CPU (user and system) used so far by this process's threads, summed by
    /// thread name (`media-io`, `media-audio`, …, from `/proc/self/task/*/stat`).
    /// Threads that ended are not counted.
    static func threadSecondsByName() -> [String: Double] {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var seconds: [String: Double] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            // After the name: state is field 3, utime and stime fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            seconds[name, default: 0] += (user + system) / ticksPerSecond
        }
        return seconds
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }
}
