// Tests for the NetworkModel module.
