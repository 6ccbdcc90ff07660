#!/usr/bin/env bash
# Builds the DocC documentation of every library module from symbol graphs with the toolchain's
# `docc`, and fails on any warning: a broken symbol link (``Name`` in a `///` comment or an
# article), an unresolved topic, a malformed article.
#   scripts/docs.sh [MODULE...]     (default: every library module, the products and the SystemCalls and Locking modules they build on)
# Archives go to .build/docs/MODULE.doccarchive (static hosting layout).
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if ((${#modules[@]} == 0)); then
    modules=(RTP SDP Codecs Jitter NetworkModel Capture QualityMetrics PlayoutLab CaptureAnalysis AudioDevice SecureTransport MediaSession SIP SystemCalls Locking)
fi

# Symbol graphs of every module, public symbols only, from a debug build (SwiftPM builds what is missing).
echo "== symbol graphs" >&2
output=.build/docs
mkdir -p "$output"
# Through a log file, not `tee /dev/stderr`: reopening stderr truncates it when it is a file.
swift package dump-symbol-graph --skip-synthesized-members >"$output/symbol-graphs.log" 2>&1 || {
    cat "$output/symbol-graphs.log" >&2
    echo "docs.sh: swift package dump-symbol-graph failed" >&2
    exit 1
}
grep -E "^(Build complete|Files written)" "$output/symbol-graphs.log" >&2 || true
graphs_line=$(grep "Files written to" "$output/symbol-graphs.log" || true)
graphs=${graphs_line#*Files written to }
graphs=${graphs%% }
[[ -d $graphs ]] || { echo "docs.sh: dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }

failed=()
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [[ -d $catalog ]] || { echo "docs.sh: $module has no DocC catalog ($catalog)" >&2; failed+=("$module"); continue; }
    # Only this module's graphs (its own and its extensions of other modules' types).
    module_graphs=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module@"*.symbols.json "$module_graphs/" 2>/dev/null || true
    echo "== docc $module" >&2
    if ! docc convert "$catalog" --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "mediaengine.$module" \
        --output-path "$output/$module.doccarchive" --warnings-as-errors --analyze >"$output/$module.log" 2>&1; then
        cat "$output/$module.log" >&2
        failed+=("$module")
    elif grep -q "warning:" "$output/$module.log"; then
        cat "$output/$module.log" >&2
        failed+=("$module")
    fi
    rm -rf "$module_graphs"
done

if ((${#failed[@]} > 0)); then
    echo "docs.sh: documentation warnings or errors in ${failed[*]}" >&2
    exit 1
fi
echo "docs.sh: ${#modules[@]} modules documented without warnings into $output"
