#!/usr/bin/env bash
# Configures and builds tap into build/ at the top of the source tree.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$top" -B "$top/build" >/dev/null
cmake --build "$top/build" -j"$(nproc)"
