# Sourced by the scripts that make speech with espeak-ng and sox (make_bench_speech.sh,
# make_heldout_speech.sh): checks both tools are installed, creates the output directory given
# as the first argument and a scratch directory `$work`, removed when the script exits.
#   source speech_workspace.sh SCRIPT-NAME OUTPUT-DIR
for tool in espeak-ng sox; do
    command -v "$tool" >/dev/null || { echo "$1: $tool is missing (apt package $tool)" >&2; exit 1; }
done
mkdir -p "$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
