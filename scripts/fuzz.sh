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

# The target names the binary prints when run without one (it then exits 2 by design). An empty
# list is an error: a smoke run over no targets would pass having fuzzed nothing.
targets() {
    local listing names
    listing=$("$scratch/release/mediafuzz" 2>&1) && { echo "fuzz.sh: mediafuzz without a target should fail" >&2; exit 1; }
    names=$(sed -n 's/^targets: //p' <<<"$listing" | tr -d ' ' | tr ',' '\n' | sed '/^$/d')
    if [[ -z $names ]]; then
        echo "fuzz.sh: mediafuzz listed no targets; it printed:" >&2
        echo "$listing" >&2
        exit 1
    fi
    echo "$names"
}

# Where a target's first inputs come from besides its own corpus, for inputs the fuzzer cannot
# find from nothing: a header that is checked by code without coverage (libpcap) or a chunk
# layout to get right before anything else runs. libFuzzer reads the first -max_len bytes of
# each; what they uncover is saved in the target's own corpus, not here.
seed_directories() {
    case $1 in
        capture-file) echo "Tests/Fixtures/captures" ;;
        wav-reader)
            local seeds="$scratch/seeds/wav-reader"
            mkdir -p "$seeds"
            python3 - "$seeds" <<'PY'
import struct, sys, wave
for name, rate, channels in (("mono-8k.wav", 8000, 1), ("stereo-48k.wav", 48000, 2)):
    with wave.open(f"{sys.argv[1]}/{name}", "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(struct.pack(f"<{40 * channels}h", *range(-20 * channels, 20 * channels)))
PY
            echo "$seeds" ;;
    esac
}

run_target() {
    local target=$1 runs=$2
    local corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target"
    rm -rf "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    echo "== fuzz $target: $runs inputs"
    local log="$scratch/logs/$target.log" status=0 seeds
    mkdir -p "$scratch/logs"
    seeds=$(seed_directories "$target")
    # The corpus comes first: libFuzzer writes what it finds into the first directory.
    "$scratch/release/mediafuzz" "$target" -runs="$runs" -max_len=4096 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" $seeds >"$log" 2>&1 || status=$?
    grep -E "^(stat::number_of_executed_units|==|SUMMARY|Done)" "$log" || true
    # A crash, a leak, a timeout or an out-of-memory stop: libFuzzer exits non-zero, and usually
    # leaves an artifact. Either one fails the run. A slow-unit-* artifact is no failure: libFuzzer
    # keeps an input that took over 10 s of wall time (a starved process on a busy machine) and
    # goes on; it stays in the artifacts directory for a look.
    if [[ $status -ne 0 ]] || compgen -G "$artifacts/[!s]*" >/dev/null; then
        echo "fuzz $target: libFuzzer exited with $status; log $log, artifacts in $artifacts" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
    # A run that executed nothing (say, a target that returns before libFuzzer starts) is no test.
    if ! grep -Eq "^stat::number_of_executed_units: *[1-9]" "$log"; then
        echo "fuzz $target: libFuzzer reported no executed inputs; log $log" >&2
        exit 1
    fi
}

build
case "$1" in
    --list) targets ;;
    --smoke) names=$(targets); for target in $names; do run_target "$target" 20000; done ;;
    --all) names=$(targets); for target in $names; do run_target "$target" "${2:-10000000}"; done ;;
    -*) usage ;;
    *) names=$(targets); grep -x "$1" <<<"$names" >/dev/null || { echo "fuzz.sh: unknown target '$1'" >&2; exit 2; }
       run_target "$1" "${2:-10000000}" ;;
esac
