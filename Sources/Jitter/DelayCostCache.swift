import Locking

/// The delay cost tables (``DelayCostTable``) of the conversational target, shared by every jitter buffer of the process:
/// a table is 500 E-model evaluations (about half a millisecond), and the buffers of a server's
/// hundreds of calls ask for the same few (the configured base delay at creation, then the
/// delay outside the buffer their RTCP round trips imply, in whole milliseconds). Tables are
/// immutable and shared without copying; the cache forgets them all past ``capacity``.
final class DelayCostCache: Sendable {
    /// What a table depends on.
    struct Key: Hashable {
        let outsideMilliseconds: Double
        let bucketCount: Int
        let bucketMilliseconds: Double
    }

    /// The process's cache.
    static let shared = DelayCostCache()

    /// Tables kept at most.
    static let capacity = 64

    private let tables = PThreadLock<[Key: DelayCostTable]>([:])

    /// The table for `key`, made by `make` (outside the lock) when it is not cached.
    func table(for key: Key, make: (Key) -> DelayCostTable) -> DelayCostTable {
        if let cached = tables.withLock({ $0[key] }) { return cached }
        let made = make(key)
        tables.withLock { tables in
            if tables.count >= Self.capacity { tables.removeAll(keepingCapacity: true) }
            tables[key] = made
        }
        return made
    }
}
