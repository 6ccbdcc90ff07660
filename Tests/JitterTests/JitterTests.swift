// Tests for the Jitter module.
