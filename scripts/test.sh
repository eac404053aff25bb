#!/usr/bin/env bash
# Builds Ridgeline and its tests, then runs every test (one process per test, as SystemC needs),
# then the Python package's tests (pytest) with the interpreter the build made the package for.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build_dir=${RIDGELINE_BUILD_DIR:-build}
ctest --test-dir "$build_dir" -j "$(nproc)" --output-on-failure
if [[ -d "$build_dir/python/ridgeline" ]]; then
  build_path=$(cd "$build_dir" && pwd)
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build_path/CMakeCache.txt")
  PYTHONPATH="$build_path/python" RIDGELINE_BUILD_DIR="$build_path" "$python" -m pytest -q python/tests
fi
