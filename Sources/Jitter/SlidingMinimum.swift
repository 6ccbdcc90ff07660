/// The smallest of the last `window` values appended, kept in fixed storage at O(1) amortised
/// cost per value (a queue of the candidates, increasing from the oldest). Each candidate's
/// value lies beside its serial, in one block: an append touches one array's lines, not two.
struct SlidingMinimum {
    private struct Candidate {
        var value: Double
        var serial: Int
    }

    private let window: Int
    private var candidates: [Candidate]
    /// The ring position of the oldest candidate, and how many there are.
    private var head = 0
    private var count = 0
    /// How many values were appended since the last ``removeAll()``.
    private var appended = 0

    init(window: Int) {
        self.window = max(window, 1)
        candidates = [Candidate](repeating: Candidate(value: 0, serial: 0), count: self.window)
    }

    /// Appends `value` and returns the smallest of the last `window` values, itself included.
    mutating func append(_ value: Double) -> Double {
        let serial = appended
        appended += 1
        // The oldest leaves as the newcomer enters (so at most `window − 1` stay).
        if count > 0, candidates[head].serial <= serial - window {
            head = head + 1 == window ? 0 : head + 1
            count -= 1
        }
        // A candidate no smaller than the newcomer can never be the minimum again.
        while count > 0, candidates[slot(count - 1)].value >= value { count -= 1 }
        candidates[slot(count)] = Candidate(value: value, serial: serial)
        count += 1
        return candidates[head].value
    }

    /// Forgets every value.
    mutating func removeAll() {
        head = 0
        count = 0
        appended = 0
    }

    /// The ring position `offset` after the oldest candidate (`offset` < `window`).
    private func slot(_ offset: Int) -> Int {
        let position = head + offset
        return position < window ? position : position - window
    }
}
