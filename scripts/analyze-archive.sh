#!/usr/bin/env bash
# Analyses a directory (or glob) of captures on Apache Spark: Parquet partitioned by capture
# date in OUTPUT/streams, and OUTPUT/summary.json (worst calls by MOS, loss and jitter
# distributions). The mediabench binary is $MEDIABENCH, else the release build, else the debug
# build of this checkout.
# Usage: scripts/analyze-archive.sh [--master URL] INPUT OUTPUT
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
master=()
if [[ "${1:-}" == "--master" ]]; then
    master=(--master "$2")
    shift 2
fi
if [[ $# -ne 2 ]]; then
    echo "usage: scripts/analyze-archive.sh [--master URL] INPUT OUTPUT" >&2
    exit 2
fi
binary="${MEDIABENCH:-}"
if [[ -z "$binary" ]]; then
    for candidate in "$here/.build/release/mediabench" "$here/.build/debug/mediabench"; do
        if [[ -x "$candidate" ]]; then binary="$candidate"; break; fi
    done
fi
if [[ -z "$binary" ]]; then
    echo "analyze-archive: no mediabench binary: build it (swift build -c release --product mediabench) or set MEDIABENCH" >&2
    exit 2
fi
python3 -c "import pyspark" 2>/dev/null || { echo "analyze-archive: pyspark missing (scripts/install-deps.sh --test)" >&2; exit 2; }
exec python3 "$here/spark/analyze_archive.py" "${master[@]}" --binary "$binary" "$1" "$2"
