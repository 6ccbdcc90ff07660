#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) and runs them. See Fuzz/README.md.
#   scripts/fuzz.sh --list | --smoke | --all [RUNS] | TARGET [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/fuzz.sh --list | --smoke | --all [RUNS] | TARGET [RUNS]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage

scratch=.build/fuzz
toolchain_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
fuzzer_lib=$(ls "$toolchain_bin"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -n 1)

build() {
    swift build -c release --scratch-path "$scratch" --product mediafuzz \
        -Xswiftc -DFUZZING \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xlinker --whole-archive -Xlinker "$fuzzer_lib" -Xlinker --no-whole-archive \
        -Xlinker -lstdc++ >&2
}

targets() { { "$scratch/release/mediafuzz" 2>&1 || true; } | sed -n 's/^targets: //p' | tr -d ' ' | tr ',' '\n'; }

run_target() {
    local target=$1 runs=$2
    local corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target"
    rm -rf "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    echo "== fuzz $target: $runs inputs"
    "$scratch/release/mediafuzz" "$target" -runs="$runs" -max_len=4096 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" 2>&1 | grep -E "^(stat::number_of_executed_units|==|SUMMARY|Done)" || true
    # libFuzzer's exit status is lost in the pipe above: check for a crash artifact instead.
    if compgen -G "$artifacts/*" >/dev/null; then
        echo "fuzz $target: crash found, see $artifacts" >&2
        exit 1
    fi
}

build
case "$1" in
    --list) targets ;;
    --smoke) for target in $(targets); do run_target "$target" 20000; done ;;
    --all) for target in $(targets); do run_target "$target" "${2:-10000000}"; done ;;
    -*) usage ;;
    *) targets | grep -x "$1" >/dev/null || { echo "fuzz.sh: unknown target '$1'" >&2; exit 2; }
       run_target "$1" "${2:-10000000}" ;;
esac
