import PlayoutLab
import Testing

@testable import Jitter

/// The 30 ms start goes, all of it at once, in a pause long enough to be a break between
/// utterances: with pauses of 800 ms at the first of them, with pauses of 250 ms (no 300 ms
/// of no speech after the voice activity decision's hangover) only once 10 s have played.
@Suite struct LeavingTheStartTests {
    /// The first pull from which the delay stays below 15 ms on a steady stream (40 ms transit,
    /// arrivals on the pulls), the voice pausing `pauseMilliseconds` every 2.75 s.
    static func startLeftAt(pauseMilliseconds: Int) -> Int? {
        let script = Script.stream(count: 1500)
        let decoder = SyntheticVoiceDecoder(pauses: .init(cycleMilliseconds: 2750, pauseMilliseconds: pauseMilliseconds))
        let result = replay(script, pulls: 3000, decoder: decoder)
        let delays = result.delays[..<2900].map(\.current)
        guard let last = delays.lastIndex(where: { $0 >= 15 }) else { return 0 }
        return last + 1 < delays.count ? last + 1 : nil
    }

    @Test func theStartGoesInTheFirstLongPause() throws {
        let pull = try #require(Self.startLeftAt(pauseMilliseconds: 800))
        #expect(pull < 350, "left at pull \(pull)")
    }

    @Test func shortPausesKeepTheStartUntilTheCallHasPlayedTenSeconds() throws {
        let pull = try #require(Self.startLeftAt(pauseMilliseconds: 250))
        #expect(pull > 1000 && pull < 1300, "left at pull \(pull)")
    }
}
