/// A binary min-heap of items due at given times: the relay's schedule of datagrams to deliver.
///
/// Items due at the same time come out in the order they were scheduled, so a trace's
/// equal arrival times keep their send order.
struct TimerHeap<Item> {
    private struct Entry {
        let dueNanoseconds: Int64
        let order: UInt64
        let item: Item

        func isEarlier(than other: Entry) -> Bool {
            (dueNanoseconds, order) < (other.dueNanoseconds, other.order)
        }
    }

    private var entries: [Entry] = []
    private var scheduled: UInt64 = 0

    /// Whether nothing is scheduled.
    var isEmpty: Bool { entries.isEmpty }

    /// How many items are scheduled.
    var count: Int { entries.count }

    /// When the earliest item is due, or nil when nothing is scheduled.
    var nextDueNanoseconds: Int64? { entries.first?.dueNanoseconds }

    /// Schedules `item` at `dueNanoseconds`.
    mutating func schedule(_ item: Item, dueNanoseconds: Int64) {
        entries.append(Entry(dueNanoseconds: dueNanoseconds, order: scheduled, item: item))
        scheduled &+= 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].isEarlier(than: entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest item if it is due at or before `nowNanoseconds`.
    mutating func popDue(atOrBefore nowNanoseconds: Int64) -> Item? {
        guard let first = entries.first, first.dueNanoseconds <= nowNanoseconds else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first.item }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var earliest = parent
            if left < entries.count, entries[left].isEarlier(than: entries[earliest]) { earliest = left }
            if right < entries.count, entries[right].isEarlier(than: entries[earliest]) { earliest = right }
            guard earliest != parent else { break }
            entries.swapAt(parent, earliest)
            parent = earliest
        }
        return first.item
    }
}
