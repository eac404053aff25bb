#!/usr/bin/env bash
# Speed and memory benchmarks (docs/PERFORMANCE.md): raw SystemC event rate and the seed table's
# cases, medians of 5 repetitions, with the summary of ratios at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
build_dir=${RIDGELINE_BUILD_DIR:-build}
exec "$build_dir/bench/ridgeline_bench" --benchmark_repetitions="${REPETITIONS:-5}" \
  --benchmark_report_aggregates_only=true "$@"
