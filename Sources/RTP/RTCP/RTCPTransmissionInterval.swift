/// The RTCP transmission interval of RFC 3550 §6.2 and A.7, as a pure function of its inputs.
public struct RTCPTransmissionInterval: Sendable, Equatable {
    /// Session members (the participant itself included).
    public var members: Int
    /// Members that sent RTP since the last report.
    public var senders: Int
    /// The bandwidth for RTCP in bytes per second (usually 5 % of the session bandwidth).
    public var rtcpBandwidth: Double
    /// Whether this participant sent RTP since its last report.
    public var weSent: Bool
    /// The running average size of compound RTCP packets, in bytes (UDP and IP headers included).
    public var averagePacketSize: Double
    /// Whether no RTCP packet has been sent yet (the minimum is halved).
    public var initial: Bool
    /// The minimum interval in seconds: 5, or ``reducedMinimum(sessionBandwidthKilobits:)``.
    public var minimumInterval: Double

    /// The fixed minimum interval of RFC 3550 §6.2, in seconds.
    public static let defaultMinimumInterval = 5.0
    /// The divisor that compensates for timer reconsideration converging below the mean: e − 3/2.
    public static let compensation = 2.718_281_828_459_045 - 1.5

    /// Collects the inputs of one computation.
    public init(
        members: Int, senders: Int, rtcpBandwidth: Double, weSent: Bool, averagePacketSize: Double,
        initial: Bool, minimumInterval: Double = RTCPTransmissionInterval.defaultMinimumInterval
    ) {
        self.members = members
        self.senders = senders
        self.rtcpBandwidth = rtcpBandwidth
        self.weSent = weSent
        self.averagePacketSize = averagePacketSize
        self.initial = initial
        self.minimumInterval = minimumInterval
    }

    /// The reduced minimum of RFC 3550 §6.2: 360 divided by the session bandwidth in kbit/s.
    public static func reducedMinimum(sessionBandwidthKilobits: Double) -> Double {
        sessionBandwidthKilobits > 0 ? 360 / sessionBandwidthKilobits : defaultMinimumInterval
    }

    /// The deterministic interval before randomisation, in seconds (A.7 up to the `drand48`).
    ///
    /// When senders are at most a quarter of the members, senders share 25 % of the RTCP
    /// bandwidth and receivers the other 75 %.
    public var deterministicSeconds: Double {
        let minimum = initial ? minimumInterval / 2 : minimumInterval
        var bandwidth = rtcpBandwidth
        var participants = Double(max(members, 1))
        if Double(senders) <= Double(members) * 0.25 {
            if weSent {
                bandwidth *= 0.25
                participants = Double(max(senders, 1))
            } else {
                bandwidth *= 0.75
                participants = Double(max(members - senders, 1))
            }
        }
        guard bandwidth > 0 else { return minimum }
        return max(averagePacketSize * participants / bandwidth, minimum)
    }

    /// The interval in seconds: the deterministic interval times a factor uniform in
    /// [0.5, 1.5), divided by e − 3/2.
    ///
    /// - Parameter random: a value uniform in [0, 1) from the caller's generator.
    public func seconds(random: Double) -> Double {
        deterministicSeconds * (min(max(random, 0), 1) + 0.5) / Self.compensation
    }
}
