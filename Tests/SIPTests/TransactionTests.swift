import RTP
import Testing
@testable import SIP

/// The RFC 3261 §17 transaction state machines, driven by an injected clock.
@Suite struct TransactionTests {
    static let invite = SIPMessageTests.parseRequest(SIPMessageTests.invite)!
    static func at(_ milliseconds: Double) -> MediaTime { .milliseconds(milliseconds) }
    static func response(_ status: Int) -> SIPResponse { SIPResponse(answering: invite, statusCode: status, toTag: "t") }

    static func sends(_ actions: [TransactionAction]) -> Int {
        actions.filter { if case .send = $0 { true } else { false } }.count
    }

    @Test func inviteClientRetransmitsOnTimerAAndTimesOutOnTimerB() {
        var transaction = InviteClientTransaction(request: Self.invite, now: Self.at(0))
        #expect(transaction.start() == [.send(.request(Self.invite))])
        var retransmissions: [Double] = []
        var now = 0.0
        var ended = false
        while now < 40_000, !ended {
            now += 10
            let actions = transaction.tick(now: Self.at(now))
            if Self.sends(actions) > 0 { retransmissions.append(now) }
            if actions.contains(.timedOut) { ended = true }
        }
        // Timer A: 0.5, 1.5, 3.5, 7.5, 15.5 s (doubling, no cap); Timer B at 64·T1 = 32 s.
        #expect(retransmissions == [500, 1500, 3500, 7500, 15500, 31500])
        #expect(now == 32_000)
        #expect(transaction.state == .terminated)
    }

    @Test func inviteClientStopsRetransmittingOnAProvisionalAndDeliversTheSuccess() {
        var transaction = InviteClientTransaction(request: Self.invite, now: Self.at(0))
        #expect(transaction.receive(Self.response(180), now: Self.at(100)) == [.deliver(Self.response(180))])
        #expect(transaction.state == .proceeding)
        #expect(Self.sends(transaction.tick(now: Self.at(5000))) == 0)
        #expect(transaction.receive(Self.response(200), now: Self.at(6000)) == [.deliver(Self.response(200)), .terminated])
    }

    @Test func inviteClientAcknowledgesAFailureAndAbsorbsItsRetransmissions() throws {
        var transaction = InviteClientTransaction(request: Self.invite, now: Self.at(0))
        let actions = transaction.receive(Self.response(486), now: Self.at(100))
        guard case .send(.request(let ack)) = actions.first else { Issue.record("no ACK"); return }
        #expect(ack.method == "ACK" && ack.uri == Self.invite.uri)
        #expect(ack.headers.cseq == CSeq(number: 1, method: "ACK"))
        #expect(ack.headers.topVia == Self.invite.headers.topVia, "the same branch as the INVITE")
        #expect(ack.headers.to?.tag == "t")
        #expect(actions.last == .deliver(Self.response(486)))
        #expect(transaction.receive(Self.response(486), now: Self.at(600)) == [.send(.request(ack))])
        #expect(transaction.tick(now: Self.at(32_000)).isEmpty)
        #expect(transaction.tick(now: Self.at(32_100)) == [.terminated])
    }

    @Test func inviteServerRetransmitsItsFinalResponseUntilTheACK() {
        var transaction = InviteServerTransaction(request: Self.invite)
        #expect(Self.sends(transaction.respond(Self.response(180), now: Self.at(0))) == 1)
        #expect(transaction.receive(Self.invite, now: Self.at(100)) == [.send(.response(Self.response(180)))])
        #expect(Self.sends(transaction.respond(Self.response(200), now: Self.at(200))) == 1)
        #expect(transaction.state == .accepted)
        var times: [Double] = []
        for now in stride(from: 210.0, through: 9000, by: 10) where Self.sends(transaction.tick(now: Self.at(now))) > 0 {
            times.append(now)
        }
        // Timer G: T1, 2·T1, 4·T1, then capped at T2 = 4 s.
        #expect(times == [700, 1700, 3700, 7700])
        var ack = Self.invite
        ack.method = "ACK"
        #expect(transaction.receive(ack, now: Self.at(9000)) == [.terminated])
    }

    @Test func inviteServerGivesUpOnTimerHAndConfirmsAFailureOnItsACK() {
        var noAck = InviteServerTransaction(request: Self.invite)
        _ = noAck.respond(Self.response(486), now: Self.at(0))
        #expect(noAck.tick(now: Self.at(32_000)) == [.timedOut, .terminated])
        var acked = InviteServerTransaction(request: Self.invite)
        _ = acked.respond(Self.response(486), now: Self.at(0))
        var ack = Self.invite
        ack.method = "ACK"
        #expect(acked.receive(ack, now: Self.at(100)).isEmpty)
        #expect(acked.state == .confirmed)
        #expect(acked.tick(now: Self.at(5100)) == [.terminated])
    }

    @Test func nonInviteClientCapsTimerEAtT2AndEndsOnTimerF() {
        var bye = Self.invite
        bye.method = "BYE"
        var transaction = NonInviteClientTransaction(request: bye, now: Self.at(0))
        var times: [Double] = []
        var now = 0.0
        while transaction.state != .terminated {
            now += 10
            if Self.sends(transaction.tick(now: Self.at(now))) > 0 { times.append(now) }
        }
        #expect(times == [500, 1500, 3500, 7500, 11500, 15500, 19500, 23500, 27500, 31500])
        #expect(now == 32_000)
    }

    @Test func nonInviteServerRepeatsItsResponseUntilTimerJ() {
        var transaction = NonInviteServerTransaction(request: Self.invite)
        #expect(transaction.receiveRetransmission().isEmpty)
        _ = transaction.respond(Self.response(200), now: Self.at(0))
        #expect(transaction.receiveRetransmission() == [.send(.response(Self.response(200)))])
        #expect(transaction.tick(now: Self.at(32_000)) == [.terminated])
    }
}
