#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test.
#   1. a release build (warnings are errors, so this is the warning check too)
#   2. the unit, known-answer and interop tests (swift test)
#   3. a short bounded run of every fuzz target (scripts/fuzz.sh --smoke)
# Long runs live behind their own commands: scripts/fuzz.sh, scripts/asan.sh, scripts/soak.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
echo "== release build"
swift build -c release
echo "== tests"
swift test
echo "== fuzz smoke"
scripts/fuzz.sh --smoke
