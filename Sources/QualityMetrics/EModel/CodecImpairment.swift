/// A codec's equipment impairment factor Ie and packet-loss robustness factor Bpl, the two
/// codec-specific inputs of the E-model, with the source of each value.
///
/// Values come from ITU-T G.113 and are planning values measured for particular packet sizes,
/// concealment and (for Bpl) random loss; ``packetDurationMilliseconds`` records the packet size
/// the value belongs to. A value that could not be traced to an ITU-T text is `nil`, and
/// ``source`` says so: supply your own in a ``CodecImpairmentTable``.
public struct CodecImpairment: Sendable, Hashable, Codable {
    /// A short, unique key such as `g711-plc`.
    public var key: String
    /// A readable name such as `G.711 with Appendix I PLC`.
    public var name: String
    /// The E-model variant (and R scale) the values belong to.
    public var bandwidth: SpeechBandwidth
    /// Ie (Ie,WB / Ie,FB for the wider variants), or `nil` when no ITU-T value is known.
    public var equipmentImpairment: Double?
    /// Bpl, or `nil` when no ITU-T value is known.
    public var packetLossRobustness: Double?
    /// The packet duration the values were measured with, in milliseconds, when known.
    public var packetDurationMilliseconds: Double?
    /// Where the values come from (Recommendation, edition, table), or why there are none.
    public var source: String

    /// A table entry; see the properties for the meaning of each argument.
    public init(
        key: String, name: String, bandwidth: SpeechBandwidth, equipmentImpairment: Double?,
        packetLossRobustness: Double?, packetDurationMilliseconds: Double?, source: String
    ) {
        self.key = key
        self.name = name
        self.bandwidth = bandwidth
        self.equipmentImpairment = equipmentImpairment
        self.packetLossRobustness = packetLossRobustness
        self.packetDurationMilliseconds = packetDurationMilliseconds
        self.source = source
    }
}

/// A set of ``CodecImpairment`` entries by key, which users can extend or override.
///
/// ``standard`` holds the values this project could trace to ITU-T G.113 Appendix I (narrowband
/// codecs) and lists, without values, the common codecs it could not:
///
/// | key | Ie | Bpl | source |
/// |---|---|---|---|
/// | `g711` | 0 | 4.3 | G.113 App. I (Bpl table; also G.107 Table 3's default Bpl) |
/// | `g711-plc` | 0 | 25.1 | G.113 App. I (Bpl table), G.711 Appendix I concealment |
/// | `g729a-vad` | 11 | 19.0 | G.113 App. I |
/// | `g723.1-6.3-vad` | 15 | 16.1 | G.113 App. I |
/// | `gsm-efr` | 5 | 10.0 | G.113 App. I |
/// | `g729`, `g726-32`, `g728`, `g723.1-5.3`, `gsm-fr`, `gsm-hr` | 10, 7, 7, 19, 20, 23 | — | G.113 App. I (Ie table only) |
/// | `ilbc`, `amr`, `g722`, `opus-wb`, `opus-fb` | — | — | not traced (see each entry) |
///
/// The Bpl table is Table I.3 in the 11/2007 edition of G.113; later editions renumber it.
public struct CodecImpairmentTable: Sendable, Hashable, Codable {
    /// The entries by ``CodecImpairment/key``.
    public private(set) var entries: [String: CodecImpairment]

    /// A table holding `entries` (a later entry with the same key replaces an earlier one).
    public init(_ entries: [CodecImpairment] = []) {
        self.entries = [:]
        for entry in entries { insert(entry) }
    }

    /// The entry with this key.
    public subscript(key: String) -> CodecImpairment? { entries[key] }

    /// Adds `entry`, replacing any entry with the same key.
    public mutating func insert(_ entry: CodecImpairment) {
        entries[entry.key] = entry
    }

    /// Every entry, sorted by key.
    public var sortedEntries: [CodecImpairment] { entries.values.sorted { $0.key < $1.key } }

    /// The entry for an SDP/RTP encoding name (`PCMU`, `PCMA`, `G729`, `G723`, `GSM`, `G722`,
    /// `iLBC`, `AMR`, `opus`; case-insensitive), or `nil` for names it does not know.
    ///
    /// - Parameters:
    ///   - encodingName: the name as SDP spells it, in any case.
    ///   - concealment: whether the receiver conceals lost G.711 packets (selects `g711-plc`
    ///     over `g711`).
    public func entry(forEncodingName encodingName: String, concealment: Bool = true) -> CodecImpairment? {
        switch encodingName.lowercased() {
        case "pcmu", "pcma": self[concealment ? "g711-plc" : "g711"]
        case "g729": self["g729a-vad"]
        case "g723": self["g723.1-6.3-vad"]
        case "gsm": self["gsm-fr"]
        case "gsm-efr": self["gsm-efr"]
        case "g722": self["g722"]
        case "ilbc": self["ilbc"]
        case "amr": self["amr"]
        case "opus": self["opus-fb"]
        default: nil
        }
    }

    /// The entry to rate a stream with: ``entry(forEncodingName:concealment:)`` when it has an
    /// Ie, else for Opus the wideband values derived in this repository by the ITU-T P.834.1
    /// method for the bitrate band holding `bitsPerSecond` (payload bits over media time; see
    /// `docs/opus-iewb.md`), else `nil` (no traceable value: no R, no MOS).
    ///
    /// - Parameters:
    ///   - encodingName: the name as SDP spells it, in any case.
    ///   - bitsPerSecond: the stream's payload bitrate, when measured.
    ///   - concealment: whether the receiver conceals lost G.711 packets.
    public func ratingEntry(forEncodingName encodingName: String, bitsPerSecond: Double?, concealment: Bool = true) -> CodecImpairment? {
        if let codec = entry(forEncodingName: encodingName, concealment: concealment), codec.equipmentImpairment != nil {
            return codec
        }
        guard encodingName.lowercased() == "opus", let bitsPerSecond, bitsPerSecond.isFinite, bitsPerSecond > 0 else { return nil }
        return OpusWidebandImpairment.entry(bitsPerSecond: bitsPerSecond)
    }

    /// The values this project could trace to ITU-T texts, and the common codecs it could not.
    public static let standard = CodecImpairmentTable(narrowbandTraced + untraced)

    private static let appendixI = "ITU-T G.113 (11/2007) Appendix I"

    private static let narrowbandTraced: [CodecImpairment] = [
        .init(
            key: "g711", name: "G.711 (PCMU/PCMA) without packet-loss concealment", bandwidth: .narrowband,
            equipmentImpairment: 0, packetLossRobustness: 4.3, packetDurationMilliseconds: 10,
            source: appendixI + ", Bpl table (I.3), random loss; also ITU-T G.107 (06/2015) Table 3 default Bpl"),
        .init(
            key: "g711-plc", name: "G.711 (PCMU/PCMA) with G.711 Appendix I concealment", bandwidth: .narrowband,
            equipmentImpairment: 0, packetLossRobustness: 25.1, packetDurationMilliseconds: 10,
            source: appendixI + ", Bpl table (I.3), random loss"),
        .init(
            key: "g729a-vad", name: "G.729A with VAD, 8 kbit/s", bandwidth: .narrowband,
            equipmentImpairment: 11, packetLossRobustness: 19.0, packetDurationMilliseconds: 20,
            source: appendixI + ", Ie table (I.1) and Bpl table (I.3), 2 frames per packet, random loss"),
        .init(
            key: "g723.1-6.3-vad", name: "G.723.1 with VAD, 6.3 kbit/s", bandwidth: .narrowband,
            equipmentImpairment: 15, packetLossRobustness: 16.1, packetDurationMilliseconds: 30,
            source: appendixI + ", Ie table (I.1) and Bpl table (I.3), random loss"),
        .init(
            key: "gsm-efr", name: "GSM-EFR, 12.2 kbit/s", bandwidth: .narrowband,
            equipmentImpairment: 5, packetLossRobustness: 10.0, packetDurationMilliseconds: 20,
            source: appendixI + ", Ie table (I.1) and Bpl table (I.3), random loss"),
        ieOnly("g729", "G.729, 8 kbit/s", 10),
        ieOnly("g726-32", "G.726 ADPCM, 32 kbit/s", 7),
        ieOnly("g728", "G.728 LD-CELP, 16 kbit/s", 7),
        ieOnly("g723.1-5.3", "G.723.1, 5.3 kbit/s", 19),
        ieOnly("gsm-fr", "GSM-FR (GSM 06.10), 13 kbit/s", 20),
        ieOnly("gsm-hr", "GSM-HR, 5.6 kbit/s", 23),
    ]

    private static func ieOnly(_ key: String, _ name: String, _ ie: Double) -> CodecImpairment {
        CodecImpairment(
            key: key, name: name, bandwidth: .narrowband, equipmentImpairment: ie,
            packetLossRobustness: nil, packetDurationMilliseconds: nil,
            source: appendixI + ", Ie table (I.1); G.113 gives this codec no Bpl")
    }

    private static let untraced: [CodecImpairment] = [
        notTraced(
            "ilbc", "iLBC (RFC 3951)", .narrowband,
            "no ITU-T Ie or Bpl for iLBC could be traced; iLBC is an IETF codec"),
        notTraced(
            "amr", "AMR (3GPP TS 26.071), narrowband modes", .narrowband,
            "no ITU-T Ie or Bpl per AMR mode could be traced to a text available here"),
        notTraced(
            "g722", "G.722, 64 kbit/s", .wideband,
            "G.113's wideband appendix tabulates Ie,WB and Bpl,WB for G.722, but no copy of that table "
                + "could be consulted here, so no value is given rather than one from memory"),
        notTraced(
            "opus-wb", "Opus, wideband", .wideband,
            "no ITU-T Ie,WB or Bpl,WB for Opus could be traced"),
        notTraced(
            "opus-fb", "Opus, fullband", .fullband,
            "no ITU-T Ie,FB or Bpl,FB for Opus could be traced"),
    ]

    private static func notTraced(
        _ key: String, _ name: String, _ bandwidth: SpeechBandwidth, _ reason: String
    ) -> CodecImpairment {
        CodecImpairment(
            key: key, name: name, bandwidth: bandwidth, equipmentImpairment: nil,
            packetLossRobustness: nil, packetDurationMilliseconds: nil, source: "not traceable: " + reason)
    }
}
