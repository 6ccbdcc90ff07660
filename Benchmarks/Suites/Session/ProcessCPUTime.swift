import Glibc

/// CPU time this process has used, user and system, on every thread (getrusage).
enum ProcessCPUTime {
    /// Seconds of CPU used so far.
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The one-minute load average of the machine, or nil when unavailable.
    static func loadAverage() -> Double? {
        var load = [0.0]
        return getloadavg(&load, 1) == 1 ? load[0] : nil
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }
}
