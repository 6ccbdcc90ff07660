#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test.
#   1. the style check (scripts/lint.sh: swift-format's rules in .swift-format)
#   2. a release build of everything, tests included (warnings are errors, so this is the
#      warning check too; -enable-testing because test targets use @testable imports)
#   3. a softphone on MediaSession alone links no libpcap (scripts/check-softphone-links.sh)
#   4. the zero-allocation tests on that release build, where "allocates nothing" is promised:
#      every such test has `Allocat` in its name (a debug build only bounds some of them)
#   5. the unit, known-answer and interop tests (swift test), then the two long synchronous
#      runs on their own (the Spark archive job, ~1.5 min, and the minute of skewed sound
#      cards): a synchronous test holds one of the two threads of Swift's cooperative pool for
#      its whole length, and with both held every asynchronous test stalls (seen: SIP calls
#      timing out while their test waited to answer), then the SIP user agent's own calls
#      (asynchronous tests that answer and hold in real time: beside the synchronous live
#      calls and browser calls they still starved, twice), then the SIPp scenarios on their
#      own, then six real calls with baresip and Linphone on their own (InteropMatrixTests,
#      the same as scripts/interop.sh --subset: both peers, both roles, SRTP, a declined
#      rtcp-mux; speech both ways scored by PESQ, DTMF, hold/resume, RTCP with an RTT), so
#      that no other test loads the machine while they are scored
#   6. a short bounded run of every fuzz target (scripts/fuzz.sh --smoke)
# Long runs live behind their own commands: scripts/fuzz.sh, scripts/asan.sh, scripts/soak.sh,
# scripts/docs.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test
echo "== lint"
scripts/lint.sh
echo "== release build"
swift build -c release --build-tests -Xswiftc -enable-testing
echo "== a softphone links no libpcap"
scripts/check-softphone-links.sh release -Xswiftc -enable-testing
echo "== zero-allocation tests (release build)"
swift test -c release --skip-build -Xswiftc -enable-testing --filter Allocat
echo "== tests"
swift test --skip "InteropMatrixTests|SIPpScenarioTests|SparkArchiveTests|DeviceClockSkewTests|UserAgentCallTests|MalformedTrafficTests|BenchSessionTests"
echo "== SIP calls in real time"
swift test --skip-build --filter "UserAgentCallTests|MalformedTrafficTests"
echo "== concurrent calls of bench session (their pass rule needs the cores)"
swift test --skip-build --filter "BenchSessionTests"
echo "== the Spark archive job"
swift test --skip-build --filter "SparkArchiveTests"
echo "== skewed sound cards"
swift test --skip-build --filter "DeviceClockSkewTests"
echo "== SIPp scenarios"
swift test --skip-build --filter "SIPpScenarioTests"
echo "== calls with baresip and Linphone"
swift test --skip-build --filter "InteropMatrixTests"
echo "== fuzz smoke"
scripts/fuzz.sh --smoke
