// Tests for the MediaSession module.
