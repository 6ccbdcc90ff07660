#!/usr/bin/env bash
# Proves that a softphone linking MediaSession alone does not link the lab: builds the
# softphone-example executable (Examples/Softphone, on MediaSession only) and fails if `ldd`
# shows libpcap. Prints the executable's shared libraries either way.
#   scripts/check-softphone-links.sh [debug|release]   (default: debug)
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=${1:-debug}
swift build -c "$configuration" --product softphone-example >&2
executable=$(swift build -c "$configuration" --show-bin-path)/softphone-example
libraries=$(ldd "$executable")
echo "$libraries"
if grep -qi "libpcap" <<<"$libraries"; then
    echo "check-softphone-links: $executable links libpcap; MediaSession must not depend on Capture" >&2
    exit 1
fi
echo "check-softphone-links: softphone-example links no libpcap"
