internal import COpenSSL
import RTP

/// One end of a DTLS-SRTP association (RFC 5763, RFC 5764), driven as a state machine: hand it
/// the DTLS datagrams that arrive and the current time, send the datagrams it returns.
///
/// OpenSSL runs the handshake over memory BIOs, so no socket is involved: tests join two
/// endpoints in memory. The peer's certificate is accepted only if it hashes to the fingerprint
/// from the peer's SDP; the `use_srtp` extension offers `SRTPCryptoSuite.dtlsSRTPProfiles`;
/// once connected, ``state`` carries the exported SRTP keys.
///
/// Time: the handshake deadline runs on the injected clock (`now`). Retransmission of a lost
/// flight follows OpenSSL's own DTLS timer (1 s, doubling), checked whenever ``poll(now:)`` is
/// called; call it every few hundred milliseconds while ``state`` is ``DTLSState/handshaking``.
public struct DTLSEndpoint: ~Copyable {
    /// The role this end plays.
    public let role: DTLSRole
    /// Where the association is.
    public private(set) var state: DTLSState = .idle
    /// Received datagrams that were not well-formed DTLS and were dropped.
    public private(set) var malformedDropped = 0

    private let context: SSLContextHandle
    private let connection: SSLConnectionHandle
    private let remoteFingerprint: CertificateFingerprint
    private let handshakeTimeout: MediaTime
    private let maximumDatagramSize: Int
    private var startedAt: MediaTime?

    /// An endpoint presenting `certificate`, expecting a peer certificate with
    /// `remoteFingerprint`.
    /// - Parameters:
    ///   - role: which side of the handshake this end plays (the SDP `a=setup` outcome).
    ///   - certificate: the certificate this end presents.
    ///   - remoteFingerprint: the fingerprint the peer's SDP announced; any other certificate
    ///     fails the handshake.
    ///   - suites: the SRTP profiles to offer or accept, most preferred first.
    ///   - handshakeTimeout: how long the handshake may take from ``start(now:)``.
    ///   - maximumDatagramSize: the largest datagram to send (handshake messages are fragmented
    ///     to fit).
    /// - Throws: ``SecureTransportError/openSSL(_:)`` when OpenSSL refuses the set-up.
    public init(
        role: DTLSRole, certificate: DTLSCertificate, remoteFingerprint: CertificateFingerprint,
        suites: [SRTPCryptoSuite] = SRTPCryptoSuite.dtlsSRTPProfiles,
        handshakeTimeout: MediaTime = MediaTime(seconds: 10), maximumDatagramSize: Int = 1200
    ) throws(SecureTransportError) {
        OpenSSLErrorQueue.clear()
        guard let method = DTLS_method(), let rawContext = SSL_CTX_new(method) else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "SSL_CTX_new"))
        }
        let context = SSLContextHandle(owning: rawContext)
        let profiles = suites.compactMap(\.dtlsProfileName).joined(separator: ":")
        // The peer's certificate is self-signed: accept it here, check its fingerprint after the handshake.
        SSL_CTX_set_verify(rawContext, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT) { _, _ in 1 }
        guard SSL_CTX_use_certificate(rawContext, certificate.certificate.pointer) == 1,
            SSL_CTX_use_PrivateKey(rawContext, certificate.key.pointer) == 1,
            SSL_CTX_check_private_key(rawContext) == 1,
            SSL_CTX_ctrl(rawContext, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(DTLS1_2_VERSION), nil) == 1,
            !profiles.isEmpty, SSL_CTX_set_tlsext_use_srtp(rawContext, profiles) == 0  // 0 is success here
        else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "DTLS context"))
        }
        let connection = try SSLConnectionHandle(context: context)
        _ = SSL_set_options(connection.pointer, Self.noQueryMTU)
        _ = SSL_ctrl(connection.pointer, SSL_CTRL_SET_MTU, maximumDatagramSize, nil)
        switch role {
        case .client: SSL_set_connect_state(connection.pointer)
        case .server: SSL_set_accept_state(connection.pointer)
        }
        self.role = role
        self.context = context
        self.connection = connection
        self.remoteFingerprint = remoteFingerprint
        self.handshakeTimeout = handshakeTimeout
        self.maximumDatagramSize = maximumDatagramSize
    }

    /// Starts the handshake at `now`: a client returns its ClientHello, a server nothing (it
    /// waits for one). Later calls return nothing.
    public mutating func start(now: MediaTime) -> [[UInt8]] {
        guard case .idle = state else { return [] }
        startedAt = now
        state = .handshaking
        return advanceHandshake()
    }

    /// Takes one received DTLS datagram and returns what to send in reply. A datagram that is not
    /// well-formed DTLS is counted in ``malformedDropped`` and ignored.
    public mutating func receive(_ datagram: UnsafeRawBufferPointer, now: MediaTime) -> [[UInt8]] {
        if case .idle = state { _ = start(now: now) }
        guard (try? DTLSRecordParser.records(in: datagram)) != nil else {
            malformedDropped += 1
            return []
        }
        switch state {
        case .handshaking, .connected: break
        case .idle, .closed, .failed: return []
        }
        guard let base = datagram.baseAddress, BIO_write(connection.incoming, base, Int32(datagram.count)) == Int32(datagram.count) else {
            return []
        }
        if case .handshaking = state { return advanceHandshake() }
        return readAfterHandshake()
    }

    /// Retransmits a lost flight when OpenSSL's timer has expired, and fails the association
    /// once the handshake has taken longer than its deadline.
    public mutating func poll(now: MediaTime) -> [[UInt8]] {
        guard case .handshaking = state, let startedAt else { return [] }
        if now - startedAt >= handshakeTimeout {
            state = .failed(.handshakeTimedOut(seconds: handshakeTimeout.seconds))
            return []
        }
        _ = SSL_ctrl(connection.pointer, DTLS_CTRL_HANDLE_TIMEOUT, 0, nil)
        return takeOutgoing()
    }

    /// Sends close_notify and moves to ``DTLSState/closed``.
    public mutating func close() -> [[UInt8]] {
        guard case .connected = state else { return [] }
        state = .closed
        _ = SSL_shutdown(connection.pointer)
        return takeOutgoing()
    }

    private mutating func advanceHandshake() -> [[UInt8]] {
        OpenSSLErrorQueue.clear()
        let result = SSL_do_handshake(connection.pointer)
        if result == 1 {
            state = finishHandshake()
        } else {
            let error = SSL_get_error(connection.pointer, result)
            if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE {
                state = .failed(.handshakeFailed(OpenSSLErrorQueue.drain(context: "SSL_do_handshake (error \(error))")))
            }
        }
        return takeOutgoing()
    }

    /// After the handshake the peer sends no application data over DTLS-SRTP: only alerts and,
    /// when our last flight was lost, a retransmitted one that OpenSSL answers.
    private mutating func readAfterHandshake() -> [[UInt8]] {
        var scratch = [UInt8](repeating: 0, count: 2048)
        while true {
            OpenSSLErrorQueue.clear()
            let result = SSL_read(connection.pointer, &scratch, Int32(scratch.count))
            if result > 0 { continue }
            let error = SSL_get_error(connection.pointer, result)
            if error == SSL_ERROR_ZERO_RETURN { state = .closed }
            break
        }
        return takeOutgoing()
    }

    private func finishHandshake() -> DTLSState {
        guard let peer = SSL_get1_peer_certificate(connection.pointer) else { return .failed(.noPeerCertificate) }
        let certificate = CertificateHandle(owning: peer)
        guard let digest = try? certificate.sha256Digest() else { return .failed(.noPeerCertificate) }
        let received = CertificateFingerprint(algorithm: .sha256, digest: digest)
        guard received == remoteFingerprint else {
            return .failed(.fingerprintMismatch(expected: remoteFingerprint, received: received))
        }
        guard let profile = SSL_get_selected_srtp_profile(connection.pointer),
            let suite = SRTPCryptoSuite(dtlsProfileIdentifier: UInt(profile.pointee.id))
        else {
            return .failed(.noSRTPProfile)
        }
        var material = [UInt8](repeating: 0, count: 2 * suite.keyMaterialLength)
        let label = Array("EXTRACTOR-dtls_srtp".utf8)
        defer { wipe(&material) }
        guard SSL_export_keying_material(connection.pointer, &material, material.count, label.map { CChar(bitPattern: $0) }, label.count, nil, 0, 0) == 1,
            let keys = try? DTLSSRTPKeys(suite: suite, exportedMaterial: material, role: role)
        else {
            return .failed(.handshakeFailed(OpenSSLErrorQueue.drain(context: "SSL_export_keying_material")))
        }
        return .connected(keys)
    }

    /// Everything OpenSSL wrote since the last call, as datagrams of whole records.
    private func takeOutgoing() -> [[UInt8]] {
        let pending = Int(BIO_ctrl_pending(connection.outgoing))
        guard pending > 0 else { return [] }
        var stream = [UInt8](repeating: 0, count: pending)
        let read = BIO_read(connection.outgoing, &stream, Int32(pending))
        guard read > 0 else { return [] }
        return DTLSRecordParser.datagrams(packing: Array(stream.prefix(Int(read))), maximumDatagramSize: maximumDatagramSize)
    }

    /// `SSL_OP_NO_QUERY_MTU` (a function-like macro Swift does not import): the MTU is ours.
    private static let noQueryMTU: UInt64 = 1 << 12
}

/// Overwrites exported key material before its array is released.
private func wipe(_ bytes: inout [UInt8]) {
    for index in bytes.indices { bytes[index] = 0 }
}
