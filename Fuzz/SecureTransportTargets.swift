import RTP
import SecureTransport

extension FuzzTarget {
    /// SecureTransport's parsers: STUN messages (with every accessor and both checks), the
    /// ICE-lite agent answering arbitrary checks, and DTLS records.
    static let secureTransport: [FuzzTarget] = [
        FuzzTarget(name: "stun-message") { bytes in
            guard let message = try? STUNMessage(parsing: bytes) else { return }
            var sum = UInt64(message.attributes.count) &+ UInt64(message.priority ?? 0)
            sum &+= UInt64(message.username?.utf8.count ?? 0) &+ (message.hasUseCandidate ? 1 : 0)
            sum &+= message.hasValidIntegrity(key: fuzzKey) ? 1 : 0
            sum &+= message.hasValidFingerprint ? 1 : 0
            if let address = try? message.xorMappedAddress() { sum &+= UInt64(address.port) }
            consume(sum)
        },
        FuzzTarget(name: "ice-lite-check") { bytes in
            var agent = ICELiteAgent(
                local: ICECredentials(usernameFragment: "evtj", password: "VOkJxbRl1RmTxUk/WvJxBt"),
                remote: ICECredentials(usernameFragment: "h6vY", password: "remote-password-0123456789"))
            let source = TransportAddress(addressBytes: [127, 0, 0, 1], port: 9)!
            switch agent.receive(bytes, from: source, now: .zero) {
            case let .answered(response, _): consume(UInt64(response.count))
            case let .refused(_, response): consume(UInt64(response?.count ?? 0))
            case .ignored: break
            }
        },
        FuzzTarget(name: "dtls-records") { bytes in
            guard let records = try? DTLSRecordParser.records(in: bytes) else { return }
            var sum: UInt64 = 0
            for record in records {
                sum &+= UInt64(record.contentType.rawValue) &+ record.sequenceNumber &+ UInt64(record.epoch)
                sum &+= UInt64(bytes[record.fragmentOffset..<record.endOffset].count)
            }
            consume(sum)
        },
    ]

    private static let fuzzKey = Array("VOkJxbRl1RmTxUk/WvJxBt".utf8)
}
