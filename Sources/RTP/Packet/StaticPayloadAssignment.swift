/// A static payload type of the RTP audio/video profile (RFC 3551 §6, Tables 4 and 5): the one
/// table of them in the package, read by SDP negotiation and by the capture analyzer.
///
///     StaticPayloadAssignment(payloadType: 8)  // PCMA, 8000 Hz, mono
public struct StaticPayloadAssignment: Sendable, Hashable {
    /// The encoding name as SDP spells it (`PCMU`, `G722`, `H261`).
    public let encodingName: String
    /// The RTP clock rate in hertz (8000 for G.722, as RFC 3551 §4.5.2 sets it).
    public let clockRate: UInt32
    /// The audio channels; 0 for a video encoding.
    public let channels: Int

    /// Whether the encoding is audio (RFC 3551 Table 4) rather than video (Table 5).
    public var isAudio: Bool { channels > 0 }

    /// The assignment of `payloadType`, or `nil` for a dynamic (96–127), reserved or
    /// unassigned type.
    public init?(payloadType: UInt8) {
        switch payloadType {
        case 0: self.init("PCMU", 8000)
        case 3: self.init("GSM", 8000)
        case 4: self.init("G723", 8000)
        case 5: self.init("DVI4", 8000)
        case 6: self.init("DVI4", 16000)
        case 7: self.init("LPC", 8000)
        case 8: self.init("PCMA", 8000)
        case 9: self.init("G722", 8000)
        case 10: self.init("L16", 44100, channels: 2)
        case 11: self.init("L16", 44100)
        case 12: self.init("QCELP", 8000)
        case 13: self.init("CN", 8000)
        case 14: self.init("MPA", 90000, channels: 0)
        case 15: self.init("G728", 8000)
        case 16: self.init("DVI4", 11025)
        case 17: self.init("DVI4", 22050)
        case 18: self.init("G729", 8000)
        case 25: self.init("CelB", 90000, channels: 0)
        case 26: self.init("JPEG", 90000, channels: 0)
        case 28: self.init("nv", 90000, channels: 0)
        case 31: self.init("H261", 90000, channels: 0)
        case 32: self.init("MPV", 90000, channels: 0)
        case 33: self.init("MP2T", 90000, channels: 0)
        case 34: self.init("H263", 90000, channels: 0)
        default: return nil
        }
    }

    private init(_ encodingName: String, _ clockRate: UInt32, channels: Int = 1) {
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }
}
