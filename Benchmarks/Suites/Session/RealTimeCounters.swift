import MediaSession

/// What shows that a machine did not keep up with its calls, summed over sessions. On a clean
/// loopback nothing is lost on the way, so every one of these is a failure of real time: a
/// concealed or late packet (the I/O or sending thread ran late), a late audio tick (the audio
/// thread missed a period), a packet dropped by a full queue.
struct RealTimeCounters: Equatable {
    /// Samples the jitter buffers made up by concealment.
    var concealedSamples = 0
    /// Packets that reached a jitter buffer after their playout time.
    var latePackets = 0
    /// Packets a jitter buffer dropped (full store or inbox, overtaken by the playout).
    var discardedPackets = 0
    /// Audio ticks that started more than two periods after the one before.
    var lateAudioTicks = 0
    /// Packets lost between the sockets (a full receive queue on loopback).
    var lostPackets: Int64 = 0
    /// Sends the socket refused.
    var sendFailures = 0
    /// RTP packets the sessions accepted (not a failure: shows the calls carried media).
    var packetsReceived = 0
    /// Samples the jitter buffers played (not a failure either).
    var playedSamples = 0

    /// Adds `session`'s counters as they stand.
    mutating func add(_ session: MediaSession) {
        let statistics = session.statistics
        let playout = session.playoutStatistics
        concealedSamples += playout.concealedSamples
        latePackets += playout.latePackets
        discardedPackets += playout.packetsDiscarded
        lateAudioTicks += statistics.lateAudioTicks
        lostPackets += statistics.packetsLost
        sendFailures += statistics.sendFailures
        packetsReceived += statistics.rtpPacketsReceived
        playedSamples += playout.playedSamples
    }

    /// What happened between `earlier` and `self`.
    func since(_ earlier: RealTimeCounters) -> RealTimeCounters {
        RealTimeCounters(
            concealedSamples: concealedSamples - earlier.concealedSamples, latePackets: latePackets - earlier.latePackets,
            discardedPackets: discardedPackets - earlier.discardedPackets, lateAudioTicks: lateAudioTicks - earlier.lateAudioTicks,
            lostPackets: lostPackets - earlier.lostPackets, sendFailures: sendFailures - earlier.sendFailures,
            packetsReceived: packetsReceived - earlier.packetsReceived, playedSamples: playedSamples - earlier.playedSamples
        )
    }

    /// Whether nothing failed.
    var keptUp: Bool {
        concealedSamples == 0 && latePackets == 0 && discardedPackets == 0 && lateAudioTicks == 0 && lostPackets <= 0
            && sendFailures == 0
    }
}
