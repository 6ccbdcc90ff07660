#!/usr/bin/env bash
# Proves that a softphone linking MediaSession alone does not link the lab: builds the
# softphone-example executable (Examples/Softphone, on MediaSession only) and fails if `ldd`
# shows libpcap. Prints the executable's shared libraries either way.
#   scripts/check-softphone-links.sh [debug|release] [BUILD FLAGS…]   (default: debug; the flags
#   are those of the build it reuses, e.g. -Xswiftc -enable-testing in scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=${1:-debug}
flags=("${@:2}")
swift build -c "$configuration" "${flags[@]}" --product softphone-example >&2
executable=$(swift build -c "$configuration" "${flags[@]}" --show-bin-path)/softphone-example
libraries=$(ldd "$executable")
echo "$libraries"
if grep -qi "libpcap" <<<"$libraries"; then
    echo "check-softphone-links: $executable links libpcap; MediaSession must not depend on Capture" >&2
    exit 1
fi
echo "check-softphone-links: softphone-example links no libpcap"
