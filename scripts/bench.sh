#!/usr/bin/env bash
# Speed and memory benchmarks (docs/PERFORMANCE.md): raw SystemC event rate and the seed table's
# cases, then sweep speed (analytical points per second, -j 2 against -j 1), then calls a second
# of the Python package's analyze; medians of 5 repetitions, with the summaries of ratios at the
# end of each.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
build_dir=${RIDGELINE_BUILD_DIR:-build}
args=(--benchmark_repetitions="${REPETITIONS:-5}" --benchmark_report_aggregates_only=true "$@")
"$build_dir/bench/ridgeline_bench" "${args[@]}"
"$build_dir/bench/ridgeline_sweep_bench" "${args[@]}"
if [[ -d "$build_dir/python/ridgeline" ]]; then
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
  PYTHONPATH="$(cd "$build_dir" && pwd)/python" "$python" bench/python/analyze_calls.py \
    --repetitions "${REPETITIONS:-5}"
fi
