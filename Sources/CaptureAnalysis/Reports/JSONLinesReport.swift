import QualityMetrics
import PlayoutLab
import Foundation

/// One stream as a flat JSON Lines record (`analyze --format jsonl`): scalar values only, keys
/// as in ``StreamReport`` where they exist, for loading into a data warehouse. The README
/// documents the schema; every key is present in every line, `null` when unknown.
public struct StreamRecord: Sendable, Hashable, Codable {
    /// The capture file, as given.
    public var file: String
    /// The SIP Call-ID of the stream's call, `null` when no SIP in the capture announced it.
    public var callID: String?
    /// The SSRC (decimal) and as `0x…` hex.
    public var ssrc: UInt32
    /// The SSRC as tshark prints it.
    public var ssrcHex: String
    /// `source:port>destination:port`, the direction of the stream.
    public var direction: String
    /// Sender's address and port.
    public var sourceAddress: String
    /// Sender's port.
    public var sourcePort: UInt16
    /// Receiver's address.
    public var destinationAddress: String
    /// Receiver's port.
    public var destinationPort: UInt16
    /// The media encoding name.
    public var codec: String?
    /// The SRTP suite of the key used, `null` for plain streams.
    public var srtpSuite: String?
    /// First packet's capture time, seconds since the Unix epoch.
    public var startTimeSeconds: Double
    /// The UTC date of ``startTimeSeconds`` (`YYYY-MM-DD`), the archive's partition key.
    public var captureDate: String
    /// First to last packet, in seconds.
    public var durationSeconds: Double
    /// Packets received, duplicates included.
    public var packets: Int
    /// RFC 3550 expected packets.
    public var expected: Int
    /// Lost packets.
    public var lost: Int
    /// Loss in percent.
    public var lossPercent: Double
    /// Final RFC 3550 jitter in milliseconds.
    public var jitterMilliseconds: Double?
    /// The call path's round trip in milliseconds.
    public var roundTripMilliseconds: Double?
    /// The call path's round trip from the smallest capture-point figures, in milliseconds.
    public var roundTripMinimumMilliseconds: Double?
    /// This SSRC's capture-point round trip in milliseconds.
    public var capturePointRoundTripMilliseconds: Double?
    /// The payload bitrate in bits per second.
    public var bitsPerSecond: Double?
    /// R from what was heard.
    public var rFactor: Double?
    /// MOS-CQE from what was heard.
    public var mos: Double?
    /// R from the network figures alone.
    public var rFactorNetwork: Double?
    /// MOS-CQE from the network figures alone.
    public var mosNetwork: Double?
    /// The loss behind our jitter buffer (network + late), in percent.
    public var effectiveLossPercent: Double?
    /// Our buffer's mean playout delay in milliseconds.
    public var playoutDelayMilliseconds: Double?
    /// Our buffer's concealment in percent.
    public var concealmentPercent: Double?
    /// Whether the audio was rebuilt.
    public var audioDecoded: Bool
    /// Why not, `null` when it was.
    public var reason: String?
    /// SRTP packets decrypted, `null` for plain streams.
    public var srtpDecrypted: UInt64?
    /// SRTP authentication failures, `null` for plain streams.
    public var srtpFailures: UInt64?
    /// DTMF keys in order.
    public var dtmf: String

    enum CodingKeys: String, CodingKey {
        case file, callID = "call_id", ssrc, ssrcHex = "ssrc_hex", direction
        case sourceAddress = "source_address", sourcePort = "source_port"
        case destinationAddress = "destination_address", destinationPort = "destination_port"
        case codec, srtpSuite = "srtp_suite", startTimeSeconds = "start_time_s", captureDate = "capture_date"
        case durationSeconds = "duration_s", packets, expected, lost, lossPercent = "loss_percent"
        case jitterMilliseconds = "jitter_ms", roundTripMilliseconds = "rtt_ms", roundTripMinimumMilliseconds = "rtt_ms_min"
        case capturePointRoundTripMilliseconds = "capture_rtt_ms"
        case bitsPerSecond = "bitrate_bps", rFactor = "r_factor", mos = "mos_cqe"
        case rFactorNetwork = "r_factor_network", mosNetwork = "mos_cqe_network"
        case effectiveLossPercent = "effective_loss_percent", playoutDelayMilliseconds = "playout_delay_ms"
        case concealmentPercent = "concealment_percent", audioDecoded = "audio_decoded", reason
        case srtpDecrypted = "srtp_decrypted", srtpFailures = "srtp_failures", dtmf
    }

    /// Encodes every key, `null` for unknown values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(callID, forKey: .callID)
        try container.encode(ssrc, forKey: .ssrc)
        try container.encode(ssrcHex, forKey: .ssrcHex)
        try container.encode(direction, forKey: .direction)
        try container.encode(sourceAddress, forKey: .sourceAddress)
        try container.encode(sourcePort, forKey: .sourcePort)
        try container.encode(destinationAddress, forKey: .destinationAddress)
        try container.encode(destinationPort, forKey: .destinationPort)
        try container.encode(codec, forKey: .codec)
        try container.encode(srtpSuite, forKey: .srtpSuite)
        try container.encode(startTimeSeconds, forKey: .startTimeSeconds)
        try container.encode(captureDate, forKey: .captureDate)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(packets, forKey: .packets)
        try container.encode(expected, forKey: .expected)
        try container.encode(lost, forKey: .lost)
        try container.encode(lossPercent, forKey: .lossPercent)
        try container.encode(jitterMilliseconds, forKey: .jitterMilliseconds)
        try container.encode(roundTripMilliseconds, forKey: .roundTripMilliseconds)
        try container.encode(roundTripMinimumMilliseconds, forKey: .roundTripMinimumMilliseconds)
        try container.encode(capturePointRoundTripMilliseconds, forKey: .capturePointRoundTripMilliseconds)
        try container.encode(bitsPerSecond, forKey: .bitsPerSecond)
        try container.encode(rFactor, forKey: .rFactor)
        try container.encode(mos, forKey: .mos)
        try container.encode(rFactorNetwork, forKey: .rFactorNetwork)
        try container.encode(mosNetwork, forKey: .mosNetwork)
        try container.encode(effectiveLossPercent, forKey: .effectiveLossPercent)
        try container.encode(playoutDelayMilliseconds, forKey: .playoutDelayMilliseconds)
        try container.encode(concealmentPercent, forKey: .concealmentPercent)
        try container.encode(audioDecoded, forKey: .audioDecoded)
        try container.encode(reason, forKey: .reason)
        try container.encode(srtpDecrypted, forKey: .srtpDecrypted)
        try container.encode(srtpFailures, forKey: .srtpFailures)
        try container.encode(dtmf, forKey: .dtmf)
    }

    /// The record of `stream` found in `file`.
    public init(_ stream: StreamReport, file: String) {
        self.file = file
        callID = stream.callID
        ssrc = stream.key.ssrc
        ssrcHex = stream.key.ssrcHex
        direction = "\(stream.key.source)>\(stream.key.destination)"
        sourceAddress = stream.key.source.address.description
        sourcePort = stream.key.source.port
        destinationAddress = stream.key.destination.address.description
        destinationPort = stream.key.destination.port
        codec = stream.codec
        srtpSuite = stream.srtpSuite
        startTimeSeconds = stream.startSeconds
        captureDate = Self.utcDate(secondsSinceEpoch: stream.startSeconds)
        durationSeconds = stream.durationSeconds
        packets = stream.packets
        expected = stream.expected
        lost = stream.lost
        lossPercent = stream.lossPercent
        jitterMilliseconds = stream.jitterMilliseconds
        roundTripMilliseconds = stream.roundTripMilliseconds
        roundTripMinimumMilliseconds = stream.roundTripMinimumMilliseconds
        capturePointRoundTripMilliseconds = stream.capturePointRoundTripMilliseconds
        bitsPerSecond = stream.mediaBitsPerSecond
        rFactor = stream.quality?.rFactor
        mos = stream.quality?.meanOpinionScore
        rFactorNetwork = stream.networkQuality?.rFactor
        mosNetwork = stream.networkQuality?.meanOpinionScore
        effectiveLossPercent = stream.jitterBuffer?.effectiveLossPercent
        playoutDelayMilliseconds = stream.jitterBuffer?.meanDelayMilliseconds
        concealmentPercent = stream.jitterBuffer?.concealmentPercent
        audioDecoded = stream.audioDecoded
        reason = stream.audioReason
        srtpDecrypted = stream.srtp?.decrypted
        srtpFailures = stream.srtp.map { $0.authenticationFailures + $0.replays + $0.otherFailures }
        dtmf = stream.dtmfEvents.map(\.key).joined()
    }

    /// The UTC calendar date (`YYYY-MM-DD`) of a time in seconds since the Unix epoch.
    public static func utcDate(secondsSinceEpoch seconds: Double) -> String {
        let days = Int((seconds / 86_400).rounded(.down))
        // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil inverse).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(width - text.count, 0)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

extension AnalysisReport {
    /// JSON Lines: one ``StreamRecord`` per stream per line, keys sorted, in file and stream order.
    public func jsonLines() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var output = ""
        for file in files {
            for stream in file.streams {
                output += String(decoding: try encoder.encode(StreamRecord(stream, file: file.path)), as: UTF8.self) + "\n"
            }
        }
        return output
    }
}
