// MediaSession: the softphone-facing engine (transport, pipelines, SDP, mute/hold/DTMF).
