import RTP

extension MediaSessionConfiguration {
    /// The settings of a leg a media server, IVR, recorder or load generator carries by the
    /// hundred on a ``MediaRuntime``: PCMU only, SRTP with AES_CM_128_HMAC_SHA1_80, no echo
    /// cancelling and no denoising (there is no loudspeaker beside a microphone on a server;
    /// they cost most of a softphone leg's CPU), the jitter buffer on with its defaults, audio
    /// from and to `audio` (a server has no sound card: an endpoint of its own, such as a
    /// ``MemoryAudioEndpoint``). Every other setting is the documented default; change what
    /// you need on the result.
    public static func serverLeg(audio: MediaAudioIO) -> MediaSessionConfiguration {
        MediaSessionConfiguration(
            codecs: [.pcmu], srtpSuites: [.aes128CounterModeHMACSHA1Tag80], echoCancellation: false, noiseSuppression: false, audio: audio
        )
    }
}
