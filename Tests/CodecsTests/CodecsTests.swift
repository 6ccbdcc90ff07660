// Tests for the Codecs module.
