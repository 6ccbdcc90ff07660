import Jitter

extension NegotiatedAudio {
    /// The telephone-event formats received, for the jitter buffer: each payload type with the
    /// clock its event durations count in (the one declared with it, else the send side's).
    var receiveTelephoneEventFormats: [TelephoneEventFormat] {
        receiveTelephoneEventPayloadTypes.map { payloadType in
            let declared = receiveCodecs.first { $0.isTelephoneEvent && $0.payloadType == payloadType }?.map.clockRate
            return TelephoneEventFormat(
                payloadType: UInt8(truncatingIfNeeded: payloadType),
                clockRate: declared ?? telephoneEventClockRate ?? sendCodec.map.clockRate)
        }
    }
}
