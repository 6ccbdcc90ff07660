import RTP

/// What a session offers and answers with, and the capabilities its last offer was made from.
struct Capabilities {
    /// The capabilities the next description is made from (its `o=` version included).
    var current: LocalAudioCapabilities
    /// The capabilities of the last offer, which its answer is applied to.
    var lastOffer: LocalAudioCapabilities?

    /// `current` for one description; the version goes up for the next one.
    mutating func takeForDescription() -> LocalAudioCapabilities {
        let taken = current
        current.sessionVersion &+= 1
        return taken
    }
}

extension MediaSession {
    /// An offer of this session's capabilities (``MediaNegotiation/offer(_:)``), willing to
    /// media in `direction` (`sendonly` or `inactive` to hold, `sendrecv` to resume). Each
    /// offer or answer the session makes carries the next `o=` version.
    public func makeOffer(direction: MediaDirection = .sendReceive) -> SessionDescription {
        capabilities.withLock { state in
            var offered = state.takeForDescription()
            offered.direction = direction
            state.lastOffer = offered
            return MediaNegotiation.offer(offered)
        }
    }

    /// Applies the peer's answer to this session's last offer (``MediaNegotiation/apply(answer:toOfferFrom:)``).
    /// - Throws: ``MediaNegotiationError``, ``MediaNegotiationError/noOfferMade`` before ``makeOffer(direction:)``.
    public func apply(answer: SessionDescription) throws(MediaNegotiationError) -> NegotiatedAudio {
        guard let offered = capabilities.withLock({ $0.lastOffer }) else { throw .noOfferMade }
        return try MediaNegotiation.apply(answer: answer, toOfferFrom: offered)
    }

    /// Answers the peer's offer with this session's capabilities, willing to media in
    /// `direction` (``MediaNegotiation/answer(to:with:)``); the answer carries the next `o=` version.
    /// - Throws: ``MediaNegotiationError``: refuse the offer with its ``MediaNegotiationError/sipStatusCode`` (488).
    public func answer(
        _ offer: SessionDescription, direction: MediaDirection = .sendReceive
    ) throws(MediaNegotiationError) -> (answer: SessionDescription, media: NegotiatedAudio) {
        var answering = capabilities.withLock { $0.current }
        answering.direction = direction
        let result = try MediaNegotiation.answer(to: offer, with: answering)
        capabilities.withLock { _ = $0.takeForDescription() }
        return result
    }
}
