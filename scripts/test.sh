#!/usr/bin/env bash
# Builds Ridgeline and its tests, then runs every test (one process per test, as SystemC needs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build_dir=${RIDGELINE_BUILD_DIR:-build}
ctest --test-dir "$build_dir" -j "$(nproc)" --output-on-failure
