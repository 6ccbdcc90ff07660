/// `mediabench emodel`: the ITU-T G.107 E-model from its inputs (issue 6).
///
/// The value ranges below are sanity limits, wider than G.107's "permitted ranges" (Table 3)
/// so that users can explore beyond them; the defaults quoted are the Recommendation's.
struct EModelCommand: Command {
    static let codec = Option(
        "codec", "NAME", .string, help: "Codec whose Ie and Bpl to use (G.113), e.g. pcmu, pcmu-plc, opus.")
    static let lossPercent = Option(
        "loss-percent", "PERCENT", .number(in: 0...100), help: "Random packet loss Ppl (default: 0).")
    static let burstRatio = Option(
        "burst-ratio", "R", .number(in: 1...1000), help: "BurstR, 1 for random loss (default: 1).")
    static let equipmentImpairment = Option(
        "ie", "IE", .number(in: 0...100), help: "Equipment impairment factor Ie (overrides --codec).")
    static let packetLossRobustness = Option(
        "bpl", "BPL", .number(in: 1...100), help: "Packet-loss robustness factor Bpl (overrides --codec).")
    static let meanDelay = Option(
        "mean-delay-ms", "MS", .nonNegativeNumber, help: "Mean one-way delay of the echo path T (default: 0).")
    static let roundTripDelay = Option(
        "round-trip-ms", "MS", .nonNegativeNumber, help: "Round-trip delay in a 4-wire loop Tr (default: 0).")
    static let absoluteDelay = Option(
        "absolute-delay-ms", "MS", .nonNegativeNumber, help: "Absolute one-way delay Ta (default: 0).")
    static let sendLoudness = Option("slr", "DB", .number(in: 0...18), help: "Send loudness rating SLR (default: 8).")
    static let receiveLoudness = Option(
        "rlr", "DB", .number(in: -5...14), help: "Receive loudness rating RLR (default: 2).")
    static let sidetoneMasking = Option(
        "stmr", "DB", .number(in: 10...20), help: "Sidetone masking rating STMR (default: 15).")
    static let listenerSidetone = Option(
        "lstr", "DB", .number(in: 13...23), help: "Listener sidetone rating LSTR (default: 18).")
    static let telephoneSensitivitySend = Option(
        "ds", "DB", .number(in: -3...3), help: "D-value of the telephone, send side Ds (default: 3).")
    static let telephoneSensitivityReceive = Option(
        "dr", "DB", .number(in: -3...3), help: "D-value of the telephone, receive side Dr (default: 3).")
    static let talkerEcho = Option(
        "telr", "DB", .number(in: 0...120), help: "Talker echo loudness rating TELR (default: 65).")
    static let weightedEchoPathLoss = Option(
        "wepl", "DB", .number(in: 0...150), help: "Weighted echo path loss WEPL (default: 110).")
    static let quantisingDistortion = Option(
        "qdu", "N", .number(in: 1...100), help: "Quantising distortion units qdu (default: 1).")
    static let circuitNoise = Option("nc", "DBM0P", .number(in: -120...0), help: "Circuit noise Nc (default: -70).")
    static let noiseFloor = Option(
        "nfor", "DBMP", .number(in: -120...0), help: "Noise floor at the receive side Nfor (default: -64).")
    static let sendRoomNoise = Option(
        "ps", "DBA", .number(in: 0...120), help: "Room noise at the send side Ps (default: 35).")
    static let receiveRoomNoise = Option(
        "pr", "DBA", .number(in: 0...120), help: "Room noise at the receive side Pr (default: 35).")
    static let advantage = Option("advantage", "A", .number(in: 0...20), help: "Advantage factor A (default: 0).")
    static let format = Option.dataFormat

    let name = "emodel"
    let summary = "Compute the ITU-T G.107 E-model rating R, MOS and each of its terms."
    let discussion = "Every input defaults to the Recommendation's default value; with all defaults R is 93.2."
    var arguments: [any ArgumentDeclaring] {
        [Self.codec, Self.lossPercent, Self.burstRatio, Self.equipmentImpairment, Self.packetLossRobustness,
         Self.meanDelay, Self.roundTripDelay, Self.absoluteDelay, Self.sendLoudness, Self.receiveLoudness,
         Self.sidetoneMasking, Self.listenerSidetone, Self.telephoneSensitivitySend,
         Self.telephoneSensitivityReceive, Self.talkerEcho, Self.weightedEchoPathLoss,
         Self.quantisingDistortion, Self.circuitNoise, Self.noiseFloor, Self.sendRoomNoise,
         Self.receiveRoomNoise, Self.advantage, Self.format]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        throw NotYetAvailable()
    }
}
