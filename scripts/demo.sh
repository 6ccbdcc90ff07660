#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, and runs `mediabench demo`.
# Extra arguments are passed to the demo.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift build -c release --product mediabench
exec .build/release/mediabench demo "$@"
