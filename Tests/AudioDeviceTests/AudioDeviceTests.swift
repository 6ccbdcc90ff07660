// Tests for the AudioDevice module.
