#!/usr/bin/env bash
# Runs the tests under ThreadSanitizer (its own scratch path). Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
swift test --sanitize=thread --scratch-path .build/tsan "$@"
