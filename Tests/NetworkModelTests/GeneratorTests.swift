import Testing

@testable import NetworkModel

@Suite struct SeededGeneratorTests {
    @Test func sameSeedSameSequence() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        var other = SeededGenerator(seed: 43)
        let a = (0..<100).map { _ in first.next() }
        #expect(a == (0..<100).map { _ in second.next() })
        #expect(a != (0..<100).map { _ in other.next() })
    }

    @Test func scenarioTracesAreReproducibleFromTheSeed() {
        for scenario in NetworkScenario.allCases {
            #expect(scenario.generate(seed: 7).trace == scenario.generate(seed: 7).trace, "\(scenario)")
        }
        #expect(NetworkScenario.heavyJitter.generate(seed: 7).trace != NetworkScenario.heavyJitter.generate(seed: 8).trace)
    }

    @Test(arguments: [
        JitterDistribution.normal(meanMilliseconds: 10, standardDeviationMilliseconds: 5),
        .gamma(meanMilliseconds: 20, standardDeviationMilliseconds: 10),
        .gamma(meanMilliseconds: 5, standardDeviationMilliseconds: 10),
        .pareto(meanMilliseconds: 40, standardDeviationMilliseconds: 20),
    ])
    func distributionMomentsMatchTheParameters(distribution: JitterDistribution) {
        var random = SeededGenerator(seed: 1)
        let count = 200_000
        let samples = (0..<count).map { _ in distribution.sample(using: &random) }
        let mean = samples.reduce(0, +) / Double(count)
        let variance = samples.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(count)
        #expect(abs(mean - distribution.meanMilliseconds) < 0.02 * distribution.meanMilliseconds)
        // Pareto's variance converges slowly (its fourth moment is infinite for shapes ≤ 4).
        let tolerance = if case .pareto = distribution { 0.15 } else { 0.03 }
        #expect(
            abs(variance.squareRoot() - distribution.standardDeviationMilliseconds)
                < tolerance * distribution.standardDeviationMilliseconds)
        if case .normal = distribution {} else { #expect(samples.allSatisfy { $0 >= 0 }) }
    }

    @Test func gammaIsRightSkewedAndParetoHasItsFloor() {
        var random = SeededGenerator(seed: 3)
        let gamma = JitterDistribution.gamma(meanMilliseconds: 20, standardDeviationMilliseconds: 10)
        let gammaSamples = (0..<50_000).map { _ in gamma.sample(using: &random) }.sorted()
        #expect(gammaSamples[25_000] < 20)  // median below the mean
        let pareto = JitterDistribution.pareto(meanMilliseconds: 40, standardDeviationMilliseconds: 20)
        let paretoSamples = (0..<50_000).map { _ in pareto.sample(using: &random) }
        // α = 1 + √(1 + 4) ≈ 3.236, floor = 40(α − 1)/α ≈ 27.64 ms.
        #expect(abs(paretoSamples.min()! - 27.64) < 0.05)
    }
}

@Suite struct GilbertElliottTests {
    @Test func lossRateAndBurstLengthMatchTheory() {
        let model = GilbertElliottLoss(goodToBad: 0.02, badToGood: 0.25)
        var state = GilbertElliottState(model: model)
        var random = SeededGenerator(seed: 11)
        let count = 400_000
        var lost = 0
        var bursts: [Int] = []
        var run = 0
        for _ in 0..<count {
            if state.nextPacketIsLost(using: &random) {
                lost += 1
                run += 1
            } else if run > 0 {
                bursts.append(run)
                run = 0
            }
        }
        let rate = Double(lost) / Double(count)
        #expect(abs(model.stationaryLossRate - 0.02 / 0.27) < 1e-12)
        #expect(abs(rate - model.stationaryLossRate) < 0.005)
        let meanBurst = Double(bursts.reduce(0, +)) / Double(bursts.count)
        #expect(abs(meanBurst - model.meanBadStateLength) < 0.15)  // 1/r = 4
    }

    @Test func bernoulliLossHasNoMemory() {
        var state = GilbertElliottState(model: .random(0.1))
        var random = SeededGenerator(seed: 5)
        let outcomes = (0..<200_000).map { _ in state.nextPacketIsLost(using: &random) }
        let rate = Double(outcomes.filter { $0 }.count) / 200_000
        let afterLoss = zip(outcomes, outcomes.dropFirst()).filter(\.0)
        let conditional = Double(afterLoss.filter(\.1).count) / Double(afterLoss.count)
        #expect(abs(rate - 0.1) < 0.005)
        #expect(abs(conditional - 0.1) < 0.01)
    }
}

@Suite struct TraceGeneratorTests {
    @Test func cleanTraceHasTheBaseDelayAndNoLoss() {
        let trace = NetworkScenario.clean.generate().trace
        #expect(trace.packets.count == 3000)
        #expect(trace.lossRate == 0)
        #expect(trace.packets.allSatisfy { $0.arrivalMilliseconds! - $0.sendMilliseconds == 40 })
        for (previous, next) in zip(trace.packets, trace.packets.dropFirst()) {
            #expect(next.sequenceNumber == previous.sequenceNumber + 1)
            #expect(next.rtpTimestamp == previous.rtpTimestamp + 160)
        }
    }

    @Test func burstyLossScenarioLosesInBursts() {
        let trace = NetworkScenario.burstyLoss.generate(seed: 2).trace
        #expect(abs(trace.lossRate - 0.074) < 0.025)
    }

    @Test func spikeHoldsPacketsThenReleasesThemBackToBack() throws {
        let generated = NetworkScenario.spikes.generate(seed: 4)
        #expect(generated.stalls.count == 6)
        for stall in generated.stalls {
            #expect(stall.upperBound - stall.lowerBound >= 300 && stall.upperBound - stall.lowerBound <= 1500)
            let arrivals = generated.trace.packets.compactMap(\.arrivalMilliseconds)
            let inside = arrivals.filter { stall.contains($0) }
            #expect(inside.isEmpty, "nothing arrives during a stall: \(inside)")
            // The packets sent well inside the stall (40 ms base delay, 5 ms jitter) arrive at its
            // end, 0.1 ms apart, in send order.
            let held = generated.trace.packets.filter {
                $0.sendMilliseconds >= stall.lowerBound - 20 && $0.sendMilliseconds <= stall.upperBound - 60
            }
            #expect(held.count == Int((stall.upperBound - 60 - (stall.lowerBound - 20)) / 20) + 1)
            let released = held.map { $0.arrivalMilliseconds! }
            #expect(released[0] >= stall.upperBound && released[0] < stall.upperBound + 2)
            for (a, b) in zip(released, released.dropFirst()) { #expect(abs(b - a - 0.1) < 0.0015) }
        }
    }

    @Test(arguments: [1000.0, -1000.0])
    func driftChangesTheSendRate(ppm: Double) {
        var profile = NetworkProfile()
        profile.senderClockDriftPPM = ppm
        let trace = TraceGenerator(profile: profile).generate(seed: 1).trace
        let first = trace.packets.first!, last = trace.packets.last!
        // Sender milliseconds per receiver millisecond: RTP time over send time.
        let rtpMilliseconds = Double(last.rtpTimestamp - first.rtpTimestamp) / 8
        let slope = rtpMilliseconds / (last.sendMilliseconds - first.sendMilliseconds)
        #expect(abs((slope - 1) * 1e6 - ppm) < 1)
    }

    @Test func reorderingScenarioReordersAndDtxPausesWithMarkers() {
        let reordered = NetworkScenario.reordering.generate().trace
        let order = reordered.arrivalOrder.map(\.sequenceNumber)
        let inversions = zip(order, order.dropFirst()).filter { $0 > $1 }.count
        #expect(inversions > 200)  // about 10 % of 3000 packets held back past two others

        let dtx = NetworkScenario.dtx.generate()
        let sent = dtx.trace.sentPackets
        #expect(sent.count < 2200 && sent.count > 800)  // talk ≈ 39 % of the time
        let duplicates = dtx.trace.packets.count - sent.count
        #expect(duplicates > 5 && duplicates < 60)
        var gaps = 0
        for (previous, next) in zip(sent, sent.dropFirst()) where next.rtpTimestamp - previous.rtpTimestamp > 160 {
            gaps += 1
            #expect(dtx.talkspurtStarts.contains(next.sequenceNumber))
            #expect(next.sequenceNumber == previous.sequenceNumber + 1, "DTX skips time, not sequence numbers")
        }
        #expect(gaps + 1 == dtx.talkspurtStarts.count)
    }
}
