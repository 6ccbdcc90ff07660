// AudioDevice: ALSA capture and playback.
