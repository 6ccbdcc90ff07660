import Glibc

/// How busy this process and the machine are.
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

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }
}
