#!/usr/bin/env bash
# Runs the tests under ThreadSanitizer (its own scratch path). Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
# The allocation tests are left out: the sanitizer interposes malloc, so nothing can be counted
# (scripts/test.sh runs them in a release build, where the counter works).
swift test --sanitize=thread --scratch-path .build/tsan --skip Allocat "$@"
