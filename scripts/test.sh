#!/usr/bin/env bash
# Installs the dependencies, builds, and runs every test (unit and golden).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/install-deps.sh"
bash "$top/scripts/build.sh"
# Golden tests set their own TIMEOUT (tests/CMakeLists.txt); --timeout covers the rest.
ctest --test-dir "$top/build" --output-on-failure -j2 --timeout 120
# Then each libFuzzer harness for 20 s (ASan + UBSan, a separate clang build),
# after replaying every input of a crash fixed before; a crash fails the run.
FUZZ_BUILD="$top/build-fuzz" bash "$top/tests/fuzz/run.sh" "${TAP_FUZZ_SECONDS:-20}"
