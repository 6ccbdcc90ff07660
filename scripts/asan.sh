#!/usr/bin/env bash
# Runs every test under AddressSanitizer (its own scratch path, so normal builds stay fast).
# Extra arguments go to `swift test` (for example --filter RTPTests). The allocation tests are
# left out: the sanitizer interposes malloc, so nothing can be counted (scripts/test.sh runs them
# in a release build, where the counter works).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0" \
    swift test --sanitize=address --scratch-path .build/asan --skip Allocat "$@"
