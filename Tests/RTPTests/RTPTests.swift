// Tests for the RTP module.
