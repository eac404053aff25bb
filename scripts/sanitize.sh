#!/usr/bin/env bash
# Builds Ridgeline and every test with AddressSanitizer and UndefinedBehaviorSanitizer (GCC, asserts
# on, -O1) in build-sanitize/, then runs the whole suite there. The tests run the sanitized
# ridgeline too, and the bad-input corpus fails on any sanitizer report it prints.
# Usage: scripts/sanitize.sh [ctest arguments, e.g. -R BadInput]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
build_dir=${RIDGELINE_SANITIZE_BUILD_DIR:-build-sanitize}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
  -DRIDGELINE_SANITIZE=ON -DRIDGELINE_BENCH=OFF >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
# Stop at the first report, with a stack. No suppressions: SystemC (not instrumented) keeps its
# kernel reachable from globals at exit, which LeakSanitizer does not report (docs/RELIABILITY.md).
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build_dir" -j "$(nproc)" --output-on-failure "$@"
