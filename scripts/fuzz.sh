#!/usr/bin/env bash
# Fuzzes a loader with libFuzzer for SECONDS (default 60), under AddressSanitizer and
# UndefinedBehaviorSanitizer, in build-fuzz/. TARGET is
#   config  the configuration loader (fuzz/config_fuzz_target.cpp): hardware, workload, --set;
#   trace   the memory-trace loader (fuzz/trace_fuzz_target.cpp): a trace file, --set.
#
# Seeds, config: every hardware file (with a seed workload) and every workload (with a valid
# machine), bundled and from the bad-input corpus, and two with --set lines; trace: every bundled
# and bad-input trace, and some with --set lines. Both add fuzz/regressions/TARGET/. New inputs
# accumulate in build-fuzz/corpus/TARGET/ across runs; an input that crashes is written to
# build-fuzz/artifacts/ and the script fails. Once fixed, copy it into fuzz/regressions/TARGET/
# (TARGET_fuzz_replay runs those in every test suite).
#
# Usage: scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags, e.g. -jobs=2]
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-}
case "$target" in
  config | trace) ;;
  *) echo "usage: scripts/fuzz.sh config|trace [SECONDS] [libFuzzer flags]" >&2; exit 2 ;;
esac
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
scripts/bootstrap.sh fuzz
build_dir=${RIDGELINE_FUZZ_BUILD_DIR:-build-fuzz}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DRIDGELINE_FUZZ=ON -DRIDGELINE_TESTS=OFF -DRIDGELINE_BENCH=OFF >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target "${target}_fuzzer"

# Seeds in the target's format: sections separated by lines "%%".
seeds="$build_dir/seeds/$target"
rm -rf "$seeds"
mkdir -p "$seeds" "$build_dir/corpus/$target" "$build_dir/artifacts"
seed() {  # seed NAME SECTION_FILE... [-- --set lines...]
  local name=$1 first=1
  shift
  {
    while [[ $# -gt 0 && $1 != -- ]]; do
      [[ $first == 1 ]] || printf '\n%%%%\n'
      cat "$1"
      first=0
      shift
    done
    if [[ $# -gt 0 ]]; then
      shift
      printf '\n%%%%\n'
      printf '%s\n' "$@"
    fi
  } >"$seeds/$name"
}
n=0
if [[ $target == config ]]; then
  for hardware in configs/hardware/*.yaml tests/bad_input/files/hardware/*.yaml; do
    seed "hw-$((n++))" "$hardware" configs/workloads/seed/gemm-4096-t64-double.yaml
  done
  for workload in $(find configs/workloads tests/bad_input/files/workload -name '*.yaml' | sort); do
    seed "wl-$((n++))" tests/bad_input/files/hardware/valid.yaml "$workload"
  done
  seed "set-$((n++))" configs/hardware/seed.yaml configs/workloads/seed/gemm-4096-t128-double.yaml \
    -- "hardware.hbm.bandwidth=2TB/s" "workload.tile={m: 32, n: 32, k: 32}" "workload.stages=1"
  seed "set-$((n++))" configs/hardware/seed.yaml configs/workloads/vector-add.yaml \
    -- "workload.length=1048576" "hardware.cores.compute.throughput.fp16=512FLOP/cycle"
else
  for trace in configs/traces/*.trace tests/bad_input/files/trace/*.trace; do
    seed "trace-$((n++))" "$trace"
  done
  seed "set-$((n++))" configs/traces/copy-64B.trace -- "workload.access_bytes=4KiB"
  seed "set-$((n++))" configs/traces/random-64B.trace -- "hardware.hbm.mode=bandwidth"
  seed "set-$((n++))" configs/traces/sequential-64B.trace -- "workload.access_bytes=32B" \
    "hardware.hbm.channels=2"
fi

echo "fuzz $target: $n seeds, $(ls "fuzz/regressions/$target" | wc -l) regression inputs," \
  "${seconds} s" >&2
exec "$build_dir/fuzz/${target}_fuzzer" -max_total_time="$seconds" -max_len=8192 \
  -dict="fuzz/$target.dict" -artifact_prefix="$build_dir/artifacts/" -print_final_stats=1 "$@" \
  "$build_dir/corpus/$target" "$seeds" "fuzz/regressions/$target"
