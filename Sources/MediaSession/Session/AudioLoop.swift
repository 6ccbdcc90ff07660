import Codecs
import Foundation
import Jitter
import QualityMetrics
import RTP
import Locking
import Synchronization

/// The call's audio thread: every 10 ms it pulls from the jitter buffer into playback, reads
/// one capture period, runs echo cancellation and denoising, and every packet time hands one
/// frame to the send path; it also sends RTCP on the RFC 3550 schedule, watches for missing
/// media and publishes the quality snapshot once a second.
///
/// Everything here belongs to the audio thread; the control plane reaches it only through
/// `control` (a short lock, never held across I/O). Buffers are allocated before the loop.
final class AudioLoop: MediaTicking, @unchecked Sendable {
    // @unchecked: once ticking, only the thread that ticks (the call's own audio thread or the
    // runtime's I/O thread that serves the call) touches the mutable state: its properties
    // skip Swift's run-time exclusivity check (`@exclusivity(unchecked)`), which only that
    // thread's accesses could trip, at a thread-local lookup per access every tick.
    /// The jitter buffer's longest delay, for the RFC 3611 VoIP metrics. Of the session's
    /// configuration and negotiated media, only what the ticks read is kept: the object stays
    /// small, and a tick brings fewer cache lines in.
    private let jitterBufferMaximumDelayMilliseconds: Double
    private let send: SendPath
    private let receive: ReceivePath
    private let jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>
    private let control: CallControlChannel
    private let monitor: PThreadLock<QualityMonitor>
    /// The session's time, which the receive path's arrivals are on too.
    private let clock: MediaClock
    /// The origin of the jitter buffer's clock (see ``ReceivePath``).
    private let epoch: MediaTime
    private let events: AsyncStream<MediaSessionEvent>.Continuation
    private let quality: AsyncStream<MediaQualityReport>.Continuation
    private let rtpDestination: SocketAddress
    private let rtcpDestination: SocketAddress?
    /// The sockets each tick reads before playing (a leg on a ``MediaRuntime``, whose sockets no
    /// event loop watches: RTP, and RTCP unless muxed); nil when an event loop delivers the datagrams.
    private let polledSockets: (rtp: UDPSocket, rtcp: UDPSocket?)?
    private let captureFormat: AudioFormat
    private let playbackFormat: AudioFormat
    private let finished = DispatchSemaphore(value: 0)
    /// The cache lines of the call's own objects a tick touches, measured when they were made
    /// (the endpoint, the application's, gets its first two lines warmed: it may not be a heap block).
    @exclusivity(unchecked) private var partLines = (send: 8, receive: 8, jitterBuffer: 16, monitor: 8)
    /// The audio period.
    static let periodNanoseconds: Int64 = 10_000_000
    /// How far the 10 ms ticks may fall behind the clock before they are re-anchored.
    static let maximumLagNanoseconds: Int64 = 40_000_000
    /// Ticks that started late (see ``MediaSessionStatistics/lateAudioTicks``), read by any thread.
    private let lateTicks = Atomic<Int>(0)
    /// The playback device's clock as the pacer sees it, read by any thread.
    private let playbackClock = PThreadLock(PlaybackClockFigures())
    /// Paces the own audio thread by the playback device's clock, when it has one.
    @exclusivity(unchecked) private var pacer: PlaybackPacer
    /// Frames written to the playback endpoint since it opened, headroom included.
    @exclusivity(unchecked) private var writtenFrames: Int64 = 0
    /// The endpoint's capture loss as last read (since it opened), and the losses of the call
    /// so far (every endpoint it had), read by any thread.
    @exclusivity(unchecked) private var captureLossSeen = AudioCaptureLoss()
    private let captureOverruns = Atomic<Int>(0)
    private let captureFramesLost = Atomic<Int>(0)
    /// The periods a stalled timer skipped, for an endpoint without a clock of its own (one
    /// with a clock reports its loss in `captureLoss()`), and those of the call so far.
    @exclusivity(unchecked) private var skippedPeriods: SkippedPeriods
    @exclusivity(unchecked) private var endpointKeepsTime = false
    private let audioPeriodsSkipped = Atomic<Int>(0)

    @exclusivity(unchecked) private var endpoint: any AudioEndpoint {
        didSet { endpointAddress = CachePrefetch.address(of: endpoint) }
    }
    /// Where the endpoint's and the polled sockets' objects lie (0 for none), for warming them
    /// without retaining them (a retain writes the line being warmed, and waits for it).
    @exclusivity(unchecked) private var endpointAddress: UInt
    private let polledSocketAddresses: (rtp: UInt, rtcp: UInt)
    @exclusivity(unchecked) private var endpointFailed = false
    @exclusivity(unchecked) private var echoCanceller: EchoCanceller?
    @exclusivity(unchecked) private var preprocessor: Preprocessor?
    /// The RFC 3611 VoIP metrics of the latest quality report, for the next RTCP XR.
    @exclusivity(unchecked) private var voipMetrics: RTCPVoIPMetrics?
    @exclusivity(unchecked) private var endpointOpened = false
    @exclusivity(unchecked) private var ended = false
    @exclusivity(unchecked) private var previousTickStart: Int64?
    /// Samples in 10 ms of capture, and 10 ms chunks in one frame.
    private let chunkSamples: Int
    private let chunksPerFrame: Int
    @exclusivity(unchecked) private var chunkIndex = 0
    /// 10 ms of capture (when it is processed), 10 ms of playback, and the frame being
    /// assembled: three parts of one block (``samples``), allocated once, that a tick warms in
    /// one run of cache lines.
    private let captured: UnsafeMutableBufferPointer<Int16>
    private let played: UnsafeMutableBufferPointer<Int16>
    private let frame: UnsafeMutableBufferPointer<Int16>
    private let samples: UnsafeMutableBufferPointer<Int16>
    /// Silence for the headroom written when the device starts (allocated once).
    private let silence: UnsafeMutableBufferPointer<Int16>
    @exclusivity(unchecked) private var schedule: RTCPSchedule
    /// The control state as of the last change the tick took, and which change that was.
    @exclusivity(unchecked) private var controlState = CallControl()
    @exclusivity(unchecked) private var controlChangesSeen = UInt64.max
    /// The peer's address once the receive path latched it (it never changes after).
    @exclusivity(unchecked) private var latchedDestination: SocketAddress?
    @exclusivity(unchecked) private var watchdog: NoMediaWatchdog
    @exclusivity(unchecked) private var nextQualityReport: MediaTime

    init(
        configuration: MediaSessionConfiguration, media: NegotiatedAudio, send: SendPath, receive: ReceivePath,
        jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>, control: CallControlChannel, monitor: PThreadLock<QualityMonitor>, clock: MediaClock,
        epoch: MediaTime,
        events: AsyncStream<MediaSessionEvent>.Continuation, quality: AsyncStream<MediaQualityReport>.Continuation,
        captureFormat: AudioFormat, playbackFormat: AudioFormat, rtpDestination: SocketAddress, rtcpDestination: SocketAddress?,
        polledSockets: (rtp: UDPSocket, rtcp: UDPSocket?)? = nil, timerLagNanoseconds: Int64 = AudioLoop.maximumLagNanoseconds
    ) throws(MediaSessionError) {
        self.polledSockets = polledSockets
        skippedPeriods = SkippedPeriods(periodNanoseconds: Self.periodNanoseconds, maximumLagNanoseconds: timerLagNanoseconds)
        jitterBufferMaximumDelayMilliseconds = configuration.jitterBuffer.maximumDelayMilliseconds
        self.send = send
        self.receive = receive
        self.jitterBuffer = jitterBuffer
        self.control = control
        self.monitor = monitor
        self.clock = clock
        self.epoch = epoch
        self.events = events
        self.quality = quality
        self.captureFormat = captureFormat
        self.rtpDestination = rtpDestination
        self.rtcpDestination = rtcpDestination
        self.playbackFormat = playbackFormat
        endpoint = Self.makeEndpoint(configuration.audio)
        endpointAddress = CachePrefetch.address(of: endpoint)
        polledSocketAddresses = (
            polledSockets.map { CachePrefetch.address(of: $0.rtp) } ?? 0, polledSockets?.rtcp.map { CachePrefetch.address(of: $0) } ?? 0
        )
        chunkSamples = captureFormat.sampleRate / 100 * captureFormat.channels
        chunksPerFrame = max(1, media.packetTimeMilliseconds / 10)
        let playedSamples = jitterBuffer.samplesPerPull * playbackFormat.channels
        samples = .allocate(capacity: chunkSamples + playedSamples + chunkSamples * chunksPerFrame)
        // Zeroed once: some devices (ALSA's `null`) leave a capture buffer as it was.
        samples.initialize(repeating: 0)
        captured = UnsafeMutableBufferPointer(rebasing: samples[..<chunkSamples])
        played = UnsafeMutableBufferPointer(rebasing: samples[chunkSamples..<(chunkSamples + playedSamples)])
        frame = UnsafeMutableBufferPointer(rebasing: samples[(chunkSamples + playedSamples)...])
        let maximumHeadroomFrames = Int((Double(playbackFormat.sampleRate) * PlaybackPacer.maximumHeadroomMilliseconds / 1000).rounded(.up))
        silence = .allocate(capacity: maximumHeadroomFrames * playbackFormat.channels)
        silence.initialize(repeating: 0)
        schedule = RTCPSchedule(configuration: configuration, media: media, now: epoch)
        watchdog = NoMediaWatchdog(timeoutSeconds: configuration.noMediaTimeoutSeconds, now: epoch)
        nextQualityReport = epoch + MediaTime(seconds: 1)
        pacer = PlaybackPacer(sampleRate: playbackFormat.sampleRate, periodNanoseconds: Self.periodNanoseconds)
        partLines = (
            CachePrefetch.lines(of: send), CachePrefetch.lines(of: receive), CachePrefetch.lines(of: jitterBuffer),
            CachePrefetch.lines(of: monitor)
        )
        if captureFormat.channels == 1 {
            do {
                if configuration.echoCancellation, playbackFormat == captureFormat {
                    echoCanceller = try EchoCanceller(
                        sampleRate: captureFormat.sampleRate, frameMilliseconds: 10, tailMilliseconds: configuration.echoTailMilliseconds
                    )
                }
                if configuration.noiseSuppression || echoCanceller != nil {
                    let processor = try Preprocessor(
                        sampleRate: captureFormat.sampleRate, frameMilliseconds: 10,
                        configuration: PreprocessorConfiguration(denoise: configuration.noiseSuppression)
                    )
                    if let echoCanceller { try processor.attach(echoCanceller) }
                    preprocessor = processor
                }
            } catch {
                throw .codec(error)
            }
        }
    }

    deinit {
        samples.deallocate()
        silence.deallocate()
    }

    private static func makeEndpoint(_ audio: MediaAudioIO) -> any AudioEndpoint {
        switch audio {
        case let .devices(capture, playback): DeviceAudioEndpoint(capture: capture, playback: playback)
        case let .endpoint(endpoint): endpoint
        }
    }

    /// Starts the call's own audio thread, paced by `clock` at the playback device's rate
    /// (``PlaybackPacer``), or by an endpoint that blocks in `read`: the softphone's
    /// arrangement, one thread per call.
    func startOwnThread(clock: any MonotonicClock) {
        MediaThread.start(named: "media-audio", qualityOfService: .userInteractive) { [self] in
            var deadline = clock.nanoseconds()
            while true {
                deadline += pacer.nextPeriodNanoseconds
                // After a long block in the device (or a stall), start again from now, not in a burst.
                deadline = max(deadline, clock.nanoseconds() - Self.maximumLagNanoseconds)
                clock.sleep(untilNanoseconds: deadline)
                if !tick(monotonicNanoseconds: clock.nanoseconds(), periods: 1) { break }
            }
        }
    }

    /// Brings in the objects a tick touches, stage by stage (see ``SharedMediaClock``, which
    /// warms this object first): those it holds (the jitter buffer and the quality monitor hold
    /// their state inline), then the sample buffers, the send and receive paths' own parts
    /// (their SRTP sessions' state among them) and the jitter buffer's locks and storage, then
    /// the receive path's mutex.
    func prefetch(_ stage: PrefetchStage) {
        switch stage {
        case .object:
            break
        case .parts:
            CachePrefetch.object(send, lines: partLines.send)
            CachePrefetch.object(receive, lines: partLines.receive)
            CachePrefetch.object(jitterBuffer, lines: partLines.jitterBuffer)
            CachePrefetch.object(control, lines: 1)
            CachePrefetch.object(monitor, lines: partLines.monitor)
            CachePrefetch.memory(atAddress: endpointAddress, lines: 2)
            CachePrefetch.memory(atAddress: polledSocketAddresses.rtp, lines: 1)
            CachePrefetch.memory(atAddress: polledSocketAddresses.rtcp, lines: 1)
        case .partsOfParts:
            let used = processesCapture ? samples : UnsafeMutableBufferPointer(rebasing: samples[captured.count...])
            if let start = used.baseAddress { CachePrefetch.region(start, bytes: used.count * MemoryLayout<Int16>.stride) }
            send.prefetchParts()
            receive.prefetchParts()
            jitterBuffer.hotRegions { CachePrefetch.region($0, bytes: $1) }
        case .deepParts:
            receive.prefetchDeepParts()
        }
    }

    /// Waits until the call has sent its BYE and ended (after `control.stopping`).
    func waitUntilFinished() {
        finished.wait()
    }

    /// A tick of the shared media clock: what arrived on the call's sockets since the last one
    /// goes through the receive path (kernel receive timestamps keep its arrival times exact),
    /// then the periods are played.
    func tick(monotonicNanoseconds: Int64, periods: Int, receivingInto batch: inout DatagramBatch) -> Bool {
        if let polledSockets {
            polledSockets.rtp.receiveAll(into: &batch) { receive.receive($0) }
            polledSockets.rtcp?.receiveAll(into: &batch) { receive.receive($0) }
        }
        return tick(monotonicNanoseconds: monotonicNanoseconds, periods: periods)
    }

    /// One tick serving the `periods` 10 ms periods that end now, back to back: for each, pull
    /// at its own due time (the last one's is now, each one before it 10 ms earlier) and play,
    /// capture and process, and every packet time send a frame; then, once, RTCP when due, the
    /// no-media watchdog, the quality report once a second. When the call is stopping it sends the BYE instead,
    /// closes the endpoint and returns false.
    func tick(monotonicNanoseconds: Int64, periods: Int) -> Bool {
        // A copy of the control state only when it changed: a retain of the digit queue, no allocation.
        var switchTo: MediaAudioIO?
        if let changed = control.takeChanges(since: &controlChangesSeen) {
            switchTo = changed.pendingAudio
            controlState = changed
            controlState.pendingAudio = nil
        }
        let state = controlState
        if state.stopping {
            end()
            return false
        }
        if !endpointOpened {
            endpointOpened = true
            openEndpoint()
        }
        if let audio = switchTo { switchEndpoint(to: audio) }
        countLateTick(start: monotonicNanoseconds, periods: periods)
        if !endpointKeepsTime { skipPeriods(skippedPeriods.tick(periods: periods, now: monotonicNanoseconds)) }
        let now = clock.now()
        for period in stride(from: max(1, periods) - 1, through: 0, by: -1) {
            let due = now - MediaTime(nanoseconds: Int64(period) * Self.periodNanoseconds)
            runPeriod(due: max(due, epoch), state: state)
        }
        if schedule.awaitsPeer, receive.remoteSSRC != nil { schedule.peerHeard(now: now) }
        if now >= schedule.next {
            if let sent = send.sendReport(
                about: receive.reportBlock(now: now), voipMetrics: voipMetrics, now: now, goodbye: false, to: rtcpDestinationNow()
            ) {
                monitor.withLock { $0.recordSentTimestamp(sent, at: now) }
            }
            schedule.reportSent(now: now, weSent: state.sends)
        }
        if let event = watchdog.check(lastMedia: receive.lastMediaTime, expecting: state.receives, now: now) {
            events.yield(event)
        }
        if now >= nextQualityReport {
            nextQualityReport = nextQualityReport + MediaTime(seconds: 1)
            publishQualityReport(now: now)
        }
        return true
    }

    /// One 10 ms period due at `due`: pull and play, capture and process, and when it completes
    /// a frame, send it.
    private func runPeriod(due: MediaTime, state: CallControl) {
        _ = jitterBuffer.pull(into: played, nowMilliseconds: (due - epoch).milliseconds)
        let slot = UnsafeMutableBufferPointer(rebasing: frame[(chunkIndex * chunkSamples)..<((chunkIndex + 1) * chunkSamples)])
        if processesCapture {
            transfer(captured: captured, played: played)
            process(captured: captured, played: played, into: slot)
        } else {
            // Nothing to cancel or denoise (a server leg): the capture goes straight into the frame.
            transfer(captured: slot, played: played)
        }
        chunkIndex += 1
        if chunkIndex == chunksPerFrame {
            chunkIndex = 0
            send.sendFrame(UnsafeBufferPointer(frame), sends: state.sends, muted: state.muted, to: destination(), nextDigit: takeDigit)
        }
    }

    /// The timer skipped `periods` periods after a stall, media time the endpoint (without a
    /// clock of its own) never captured: the send path skips it as lost capture, and it is counted.
    private func skipPeriods(_ periods: Int) {
        guard periods > 0 else { return }
        send.skipLostCapture(frames: periods * captureFormat.sampleRate / 100)
        audioPeriodsSkipped.add(periods, ordering: .relaxed)
    }

    /// The shared clock stops under a running call: the call ends as if stopped.
    func clockStopped() {
        end()
    }

    /// Sends the BYE, closes the endpoint and lets ``waitUntilFinished()`` return. Once.
    private func end() {
        guard !ended else { return }
        ended = true
        let end = clock.now()
        send.sendReport(about: receive.reportBlock(now: end), voipMetrics: voipMetrics, now: end, goodbye: true, to: rtcpDestinationNow())
        endpoint.close()
        finished.signal()
    }

    /// Counts this tick of `periods` periods as late when it starts more than one period later
    /// than due after the one before (two periods apart for one-period ticks), whatever paced
    /// it: a timer, or a device blocking in `read`.
    private func countLateTick(start: Int64, periods: Int) {
        if let previous = previousTickStart, start - previous > Int64(max(1, periods) + 1) * Self.periodNanoseconds {
            lateTicks.add(1, ordering: .relaxed)
        }
        previousTickStart = start
    }

    /// Rates the last second and publishes it with the figures behind it.
    private func publishQualityReport(now: MediaTime) {
        let playout = jitterBuffer.statistics
        let report = monitor.withLock { monitor in
            monitor.update(playout: PlayoutFigures(playout))
            return monitor.makeReport(now: now)
        }
        if let remoteSSRC = receive.remoteSSRC {
            let metrics = VoIPMetrics(report: report, jitterBufferAbsoluteMaximumMilliseconds: jitterBufferMaximumDelayMilliseconds)
            voipMetrics = RTCPVoIPMetrics(ssrc: remoteSSRC, metrics: metrics)
        }
        quality.yield(MediaQualityReport(quality: report, session: statistics(), jitterBuffer: playout))
    }

    /// The receive counters merged with the send counters.
    func statistics() -> MediaSessionStatistics {
        var statistics = receive.statistics
        let sent = send.counters
        statistics.rtpPacketsSent = sent.rtpPackets.load(ordering: .relaxed)
        statistics.rtpPayloadBytesSent = sent.rtpPayloadBytes.load(ordering: .relaxed)
        statistics.rtcpPacketsSent = sent.rtcpPackets.load(ordering: .relaxed)
        statistics.sendFailures = sent.failures.load(ordering: .relaxed)
        statistics.forwardErrorCorrectionLossPercent = sent.forwardErrorCorrectionLossPercent
        statistics.lateAudioTicks = lateTicks.load(ordering: .relaxed)
        statistics.captureOverruns = captureOverruns.load(ordering: .relaxed)
        statistics.captureFramesLost = captureFramesLost.load(ordering: .relaxed)
        statistics.audioPeriodsSkipped = audioPeriodsSkipped.load(ordering: .relaxed)
        let playback = playbackClock.withLock { $0 }
        statistics.playbackUnderruns = playback.underruns
        statistics.playbackUnderrunsAfterLateWakeUps = playback.underrunsAfterLateWakeUps
        statistics.playbackClockSkewPartsPerMillion = playback.skewPartsPerMillion
        statistics.playbackHeadroomMilliseconds = playback.headroomMilliseconds
        return statistics
    }

    /// The jitter buffer's figures so far.
    var playoutStatistics: JitterBufferStatistics {
        jitterBuffer.statistics
    }

    /// The next digit to send; asks the control plane only when the last change showed some.
    private func takeDigit() -> UInt8? {
        controlState.pendingDigits.isEmpty ? nil : control.takeDigit()
    }

    /// Where RTP goes: the latched source (symmetric RTP), else the negotiated address. A leg
    /// whose tick reads its sockets (on a ``MediaRuntime``) connects its RTP socket to the
    /// latched source (``SendPath/connect(to:)``): the receive path drops every other source
    /// from then on anyway, and the kernel then sends and delivers without a lookup per packet.
    private func destination() -> SocketAddress {
        if let latchedDestination { return latchedDestination }
        latchedDestination = receive.latchedSource
        if let latchedDestination, polledSockets != nil { send.connect(to: latchedDestination) }
        return latchedDestination ?? rtpDestination
    }

    private func rtcpDestinationNow() -> SocketAddress {
        rtcpDestination ?? destination()
    }

    /// Plays `played` and fills `captured`; a failing device is reported once and replaced by
    /// silence until the audio is switched.
    private func transfer(captured: UnsafeMutableBufferPointer<Int16>, played: UnsafeMutableBufferPointer<Int16>) {
        guard !endpointFailed else {
            captured.update(repeating: 0)
            return
        }
        do {
            if let position = endpoint.playbackPosition() {
                pacer.record(position, writtenFrames: writtenFrames, monotonicNanoseconds: clock.monotonic.nanoseconds())
                let pacer = pacer
                playbackClock.withLock { $0.update(from: pacer) }
                if pacer.primingFrames > 0 { try writeSilence(frames: pacer.primingFrames) }
            }
            try endpoint.write(UnsafeBufferPointer(played))
            writtenFrames += Int64(played.count / playbackFormat.channels)
            try endpoint.read(into: captured)
            let loss = endpoint.captureLoss()
            if loss != captureLossSeen { captureLost(since: loss) }
        } catch {
            fail(error)
            captured.update(repeating: 0)
        }
    }

    /// The capture lost audio since `captureLossSeen` (an overrun): the send path skips its media
    /// time, and the loss is counted and raised as an event.
    private func captureLost(since loss: AudioCaptureLoss) {
        let overruns = max(0, loss.overruns - captureLossSeen.overruns)
        let frames = max(0, loss.frames - captureLossSeen.frames)
        captureLossSeen = loss
        send.skipLostCapture(frames: frames)
        captureOverruns.add(overruns, ordering: .relaxed)
        captureFramesLost.add(frames, ordering: .relaxed)
        if frames > 0 { events.yield(.captureOverrun(lostMilliseconds: Double(frames) * 1000 / Double(captureFormat.sampleRate))) }
    }

    /// Whether the capture is echo cancelled or denoised (into the frame, from ``captured``);
    /// else it is read straight into the frame and ``captured`` is not used.
    private var processesCapture: Bool {
        echoCanceller != nil || preprocessor != nil
    }

    /// Echo cancellation against what was just played, then denoising, into `output`.
    private func process(
        captured: UnsafeMutableBufferPointer<Int16>, played: UnsafeMutableBufferPointer<Int16>, into output: UnsafeMutableBufferPointer<Int16>
    ) {
        let cancelled =
            echoCanceller.map { canceller in
                (try? canceller.cancel(captured: UnsafeBufferPointer(captured), playback: UnsafeBufferPointer(played), into: output)) != nil
            } ?? false
        if !cancelled { _ = output.update(fromContentsOf: captured) }
        try? preprocessor?.process(output)
    }

    /// Opens the endpoint; one with a clock of its own gets the pacer's headroom of silence
    /// queued first.
    private func openEndpoint() {
        pacer = PlaybackPacer(sampleRate: playbackFormat.sampleRate, periodNanoseconds: Self.periodNanoseconds)
        writtenFrames = 0
        captureLossSeen = AudioCaptureLoss()
        skippedPeriods.restart()
        endpointKeepsTime = false
        playbackClock.withLock { $0 = PlaybackClockFigures() }
        do {
            try endpoint.open(capture: captureFormat, playback: playbackFormat)
            endpointFailed = false
            endpointKeepsTime = endpoint.playbackPosition() != nil
            if endpointKeepsTime { try writeSilence(frames: pacer.headroomFrames) }
        } catch {
            fail(error)
        }
    }

    /// Writes `frames` of silence to the playback endpoint (the headroom, as the device starts).
    private func writeSilence(frames: Int) throws(MediaSessionError) {
        let samples = min(frames * playbackFormat.channels, silence.count)
        try endpoint.write(UnsafeBufferPointer(rebasing: silence[0..<samples]))
        writtenFrames += Int64(samples / playbackFormat.channels)
    }

    private func switchEndpoint(to audio: MediaAudioIO) {
        endpoint.close()
        endpoint = Self.makeEndpoint(audio)
        echoCanceller?.reset()
        openEndpoint()
    }

    private func fail(_ error: MediaSessionError) {
        endpointFailed = true
        events.yield(.deviceError(error.description))
    }
}
