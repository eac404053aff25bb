#!/usr/bin/env bash
# Installs what is missing, then configures and builds Ridgeline in build/ (or $RIDGELINE_BUILD_DIR).
# Usage: scripts/build.sh [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
build_dir=${RIDGELINE_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
