// Tests for the mediabench command line and benchmark harness.
