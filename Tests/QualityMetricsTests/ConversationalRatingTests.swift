import QualityMetrics
import Testing

/// R_conv against values computed apart from this code: R_LQ as the real root in 6.5…100 of
/// G.107's cubic MOS(R) = MOS (numpy.roots), Id from G.107's equations 7-2 … 7-28 written out
/// again in Python for the default connection with T = Ta and Tr = 2 Ta.
@Suite("Conversational rating R_conv")
struct ConversationalRatingTests {
    @Test(arguments: [
        (1.5, 27.268821), (2.5, 48.568304), (3.0, 58.078518), (3.6, 70.063996), (4.0, 79.370897), (4.3, 88.479792),
    ])
    func listeningRatingInvertsTheMOSCubic(mos: Double, expected: Double) {
        let r = ConversationalRating.listeningRFactor(fromMOS: mos)
        #expect(abs(r - expected) < 1e-5, "MOS \(mos): R \(r)")
        #expect(abs(MeanOpinionScore.fromRFactor(r) - mos) < 1e-9)
    }

    @Test func listeningRatingIsLimitedToTheScaleOfTheMOS() {
        #expect(ConversationalRating.listeningRFactor(fromMOS: 0.5) == 6.5)
        #expect(ConversationalRating.listeningRFactor(fromMOS: 4.549) == 100)
    }

    @Test(arguments: [
        (0.0, 0.149046), (50.0, 1.599092), (100.0, 2.691523), (150.0, 3.816122), (200.0, 7.550535),
        (250.0, 14.178153), (300.0, 20.688893), (400.0, 31.108427),
    ])
    func delayImpairmentMatchesG107(ta: Double, expected: Double) throws {
        let id = try ConversationalRating.delayImpairment(mouthToEarMilliseconds: ta)
        #expect(abs(id - expected) < 1e-5, "Ta \(ta): Id \(id)")
    }

    @Test(arguments: [
        (3.76, 180.0, 68.054580), (4.2, 120.0, 81.968270), (2.9, 260.0, 40.633598), (4.55, 0.0, 99.850954),
    ])
    func conversationalRatingIsListeningRatingLessDelay(mos: Double, ta: Double, expected: Double) throws {
        let rating = try ConversationalRating(listeningMOS: mos, bandwidth: .narrowband, mouthToEarMilliseconds: ta)
        #expect(abs(rating.rFactor - expected) < 1e-5, "MOS \(mos), Ta \(ta): R_conv \(rating.rFactor)")
    }

    @Test func widebandListeningRatingIsOnTheG1071Scale() throws {
        let rating = try ConversationalRating(listeningMOS: 4.3, bandwidth: .wideband, mouthToEarMilliseconds: 150)
        #expect(abs(rating.listeningRFactor - 88.479792 * 1.29) < 1e-4)
    }

    @Test func aDelayThatIsNotANumberIsRefused() {
        #expect(throws: EModelError.self) {
            try ConversationalRating(listeningMOS: 4, bandwidth: .narrowband, mouthToEarMilliseconds: .nan)
        }
    }
}
