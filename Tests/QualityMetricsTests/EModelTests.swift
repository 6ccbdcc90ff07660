import Foundation
import QualityMetrics
import Testing

@Suite("E-model behaviour")
struct EModelTests {
    @Test func mosIsOneBelowSixPointFiveAndCapsAtFourPointFive() {
        // G.107 Annex B, eq. B-4: the cubic dips below 1 for 0 < R < 6.5; the current
        // edition clamps it there.
        #expect(MeanOpinionScore.fromRFactor(-5) == 1)
        #expect(MeanOpinionScore.fromRFactor(3) == 1)
        #expect(MeanOpinionScore.fromRFactor(6.4) == 1)
        #expect(abs(MeanOpinionScore.fromRFactor(6.5) - 1) < 0.001)
        #expect(MeanOpinionScore.fromRFactor(120) == 4.5)
        #expect(MeanOpinionScore.fromRFactor(129, bandwidth: .wideband) == MeanOpinionScore.fromRFactor(100))
    }

    @Test func delaySensitivityClassesOrderTheImpairment() throws {
        var impairments: [Double] = []
        for sensitivity in DelaySensitivity.allStandard {
            var parameters = EModelParameters()
            parameters.absoluteDelayMilliseconds = 300
            parameters.delaySensitivity = sensitivity
            impairments.append(try EModel.evaluate(parameters).delay.absoluteDelayImpairment)
        }
        #expect(impairments[0] > impairments[1] && impairments[1] > impairments[2])
        #expect(DelaySensitivity.standard(named: "very-low") == .veryLow)
    }

    @Test func burstyLossHurtsMoreThanRandomLoss() throws {
        var parameters = EModelParameters()
        (parameters.packetLossRobustness, parameters.packetLossPercent) = (25.1, 5)
        let random = try EModel.evaluate(parameters)
        parameters.burstRatio = 2
        let bursty = try EModel.evaluate(parameters)
        // Eq. 7-29: 95 · 5 / (5/2 + 25.1) = 17.210 against 95 · 5 / 30.1 = 15.781.
        #expect(abs(bursty.effectiveEquipmentImpairment - 17.2101) < 0.001)
        #expect(abs(random.effectiveEquipmentImpairment - 15.7807) < 0.001)
    }

    @Test func echoAndLowSidetoneTermsAppear() throws {
        var parameters = EModelParameters()
        parameters.echoPathDelayMilliseconds = 50
        parameters.talkerEchoLoudnessRating = 55
        #expect(try EModel.evaluate(parameters).delay.talkerEchoImpairment > 1)
        parameters.echoPathDelayMilliseconds = 0.5
        #expect(try EModel.evaluate(parameters).delay.talkerEchoImpairment == 0, "T < 1 ms counts as sidetone")
        parameters.echoPathDelayMilliseconds = 50
        parameters.sidetoneMaskingRating = 25
        let loud = try EModel.evaluate(parameters)
        let ist = try #require(loud.simultaneous?.sidetoneImpairment)
        #expect(loud.delay.talkerEchoImpairment >= abs(ist), "eq. 7-24 folds Ist into Idte above STMR 20 dB")
        parameters.roundTripDelayMilliseconds = 100
        parameters.weightedEchoPathLoss = 30
        #expect(try EModel.evaluate(parameters).delay.listenerEchoImpairment > 1)
    }

    @Test func widebandAndFullbandUseTheirFixedRo() throws {
        var parameters = EModelParameters()
        parameters.bandwidth = .wideband
        let wideband = try EModel.evaluate(parameters)
        #expect(wideband.basicSignalToNoiseRatio == 129)
        #expect(wideband.simultaneousImpairment == 0)
        #expect(wideband.noise == nil && wideband.simultaneous == nil)
        #expect(wideband.rFactor > 128 && wideband.rFactor < 129)
        #expect(abs(wideband.conversationalMOS - MeanOpinionScore.fromRFactor(wideband.rFactor / 1.29)) < 1e-12)
        parameters.bandwidth = .fullband
        #expect(try EModel.evaluate(parameters).basicSignalToNoiseRatio == 148)
    }

    @Test func invalidParametersThrowNamingTheParameter() {
        var parameters = EModelParameters()
        parameters.quantizingDistortionUnits = 0
        #expect(throws: EModelError.invalidParameter(symbol: "qdu", value: 0, requirement: "must be above 0")) {
            try EModel.evaluate(parameters)
        }
        parameters = EModelParameters()
        parameters.packetLossPercent = .nan
        do {
            _ = try EModel.evaluate(parameters)
            Issue.record("NaN Ppl accepted")
        } catch {
            #expect(error.description.contains("Ppl"))
        }
        parameters = EModelParameters()
        parameters.packetLossPercent = 120
        #expect(throws: EModelError.self) { try EModel.evaluate(parameters) }
    }

    @Test func codecTableIsExtensibleAndSaysWhatItCannotTrace() throws {
        let table = CodecImpairmentTable.standard
        let g729 = try #require(table.entry(forEncodingName: "G729"))
        #expect(g729.equipmentImpairment == 11 && g729.packetLossRobustness == 19.0)
        #expect(table.entry(forEncodingName: "PCMU", concealment: false)?.packetLossRobustness == 4.3)
        for entry in table.sortedEntries {
            #expect(!entry.source.isEmpty)
            if entry.equipmentImpairment == nil { #expect(entry.source.hasPrefix("not traceable")) }
        }
        let opus = try #require(table.entry(forEncodingName: "opus"))
        #expect(throws: EModelError.valueNotTraceable(codec: opus.name, symbol: "Ie")) {
            try EModelParameters().applying(opus)
        }
        var lossy = EModelParameters()
        lossy.packetLossPercent = 1
        #expect(throws: EModelError.valueNotTraceable(codec: "G.729, 8 kbit/s", symbol: "Bpl")) {
            try lossy.applying(try #require(table["g729"]))
        }

        var extended = table
        extended.insert(
            CodecImpairment(
                key: "opus-fb", name: "Opus, fullband (our measurement)", bandwidth: .fullband,
                equipmentImpairment: 10, packetLossRobustness: 20, packetDurationMilliseconds: 20,
                source: "lab measurement"))
        let applied = try lossy.applying(try #require(extended.entry(forEncodingName: "opus")))
        #expect(applied.bandwidth == .fullband && applied.equipmentImpairment == 10)
        #expect(table["opus-fb"]?.equipmentImpairment == nil, "the standard table is unchanged")
    }

    @Test func renderingListsEveryTermAndEncodesAsJSON() throws {
        let result = try EModel.evaluate(EModelParameters())
        let text = result.description
        for symbol in ["Ro", "No", "Is", "Iolr", "Ist", "Iq", "Id", "Idte", "Idle", "Idd", "Ie,eff", "A", "R", "MOS-CQE"] {
            #expect(text.contains("\n" + symbol + " ") || text.contains(" " + symbol + " "), "missing \(symbol)")
        }
        #expect(text.contains("93.21"))
        let keys = Set(result.terms.map(\.key))
        #expect(keys.isSuperset(of: ["ro", "is", "id", "idte", "idle", "idd", "ie_eff", "a", "r", "mos_cqe"]))

        #expect(try JSONDecoder().decode(EModelResult.self, from: JSONEncoder().encode(result)) == result)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(String(decoding: try encoder.encode(result), as: UTF8.self).contains("\"r_factor\""))
    }

    @Test func burstRatioFromMarkovModelAndFromASequence() throws {
        #expect(BurstRatio.markov(lossProbability: 0.1, recoveryProbability: 0.4) == 2)
        #expect(BurstRatio.markov(lossProbability: 0, recoveryProbability: 0) == nil)
        // Random-looking isolated losses: p = 2/8 found-with-successor... every loss is
        // followed by a found packet, so q = 1, p = 2/8, BurstR = 1 / 1.25 = 0.8.
        let isolated = [false, false, false, true, false, false, false, false, true, false, false]
        #expect(BurstRatio.estimate(fromLosses: isolated) == 0.8)
        // One burst of 3 in 10: found→lost once out of 6 found-with-successor (p = 1/6),
        // lost→found once out of 3 lost-with-successor (q = 1/3): BurstR = 1 / (1/2) = 2.
        let burst = [false, false, false, true, true, true, false, false, false, false]
        #expect(abs(try #require(BurstRatio.estimate(fromLosses: burst)) - 2) < 1e-12)
        #expect(BurstRatio.estimate(fromLosses: [false, false, false]) == 1)
        #expect(BurstRatio.estimate(fromLosses: [true, true]) == nil)
        #expect(BurstRatio.estimate(fromLosses: [false]) == nil)
    }
}

@Suite("E-model inputs by name")
struct EModelInputTests {
    @Test func everyInputCanBeSetByItsSymbolOrFlag() throws {
        #expect(EModelInput.all.count == 23)
        #expect(EModelInput.named("ta")?.defaultValue == 0)
        #expect(EModelInput.named("LSTR")?.defaultValue == 18, "STMR + Dr")
        #expect(EModelInput.named("bpl")?.defaultValue == 4.3)
        var parameters = EModelParameters()
        for input in EModelInput.all {
            #expect(parameters.value(of: input.symbol) == input.defaultValue)
        }
        for input in EModelInput.all {
            try parameters.set(input.flag, to: input.defaultValue + 1)
            #expect(parameters.value(of: input.symbol) == input.defaultValue + 1, "\(input.symbol)")
        }
        #expect(parameters.listenerSidetoneRating == 19)
        #expect(parameters.delaySensitivity.name == "custom")
        #expect(throws: EModelError.self) { try parameters.set("nope", to: 1) }
    }

    @Test func settingMTAndSTNamesTheClass() throws {
        var parameters = EModelParameters()
        try parameters.set("mT", to: 120)
        #expect(parameters.delaySensitivity.name == "custom")
        try parameters.set("sT", to: 0.55)
        #expect(parameters.delaySensitivity == .low)
    }
}
