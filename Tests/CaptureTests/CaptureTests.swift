// Tests for the Capture module.
