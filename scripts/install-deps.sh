#!/usr/bin/env bash
# Installs what the project needs on Debian 12, skipping whatever is already present.
#   scripts/install-deps.sh          build and run (the libraries the package links)
#   scripts/install-deps.sh --test   also the test oracles and benchmark peers
# apt-get update runs only when something must be installed. Safe to run any number of times.
set -euo pipefail

build_packages=(pkg-config libopus-dev libspeexdsp-dev libsrtp2-dev libasound2-dev libpcap-dev libssl-dev)
# Test oracles (tshark, espeak-ng, sox), the C peers the benchmarks compare against, the real
# softphones and tools of the interop bed (baresip, Linphone, SIPp, Chromium, GStreamer) and the
# JRE that Spark's local mode runs on.
test_packages=(gcc tshark espeak-ng sox libspandsp-dev libortp-dev libre-dev
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
    baresip-core linphone-cli sip-tester chromium openjdk-17-jre-headless)
# Python oracles, used only by tests and benchmarks, never linked or shipped.
python_modules=(pesq:pesq pylibsrtp:pylibsrtp numpy:numpy pjsua2:pjsua2-python aiortc:aiortc pyspark:pyspark pyarrow:pyarrow)

packages=("${build_packages[@]}")
with_test=false
for argument in "$@"; do
    case "$argument" in
        --test) with_test=true ;;
        *) echo "install-deps.sh: unknown option '$argument' (expected --test)" >&2; exit 2 ;;
    esac
done
$with_test && packages+=("${test_packages[@]}")

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} > 0)); then
    echo "install-deps: installing ${missing[*]}"
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if $with_test; then
    python=$(command -v python3)
    missing_python=()
    for entry in "${python_modules[@]}"; do
        module=${entry%%:*}
        distribution=${entry#*:}
        "$python" -c "import $module" 2>/dev/null || missing_python+=("$distribution")
    done
    if ((${#missing_python[@]} > 0)); then
        echo "install-deps: installing Python packages ${missing_python[*]}"
        "$python" -m pip install --quiet "${missing_python[@]}"
    fi
fi
