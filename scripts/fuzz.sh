#!/usr/bin/env bash
# Fuzzes the configuration loader (fuzz/config_fuzz_target.cpp) with libFuzzer for SECONDS
# (default 60), under AddressSanitizer and UndefinedBehaviorSanitizer, in build-fuzz/.
#
# Seeds: every hardware file (with a seed workload) and every workload (with a valid machine),
# bundled and from the bad-input corpus, two with --set lines, and fuzz/regressions/config/. New inputs accumulate in build-fuzz/corpus/ across runs; an input
# that crashes is written to build-fuzz/artifacts/ and the script fails. Once fixed, copy it into
# fuzz/regressions/config/ (config_fuzz_replay runs those in every test suite).
#
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags, e.g. -jobs=2]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
scripts/bootstrap.sh fuzz
build_dir=${RIDGELINE_FUZZ_BUILD_DIR:-build-fuzz}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DRIDGELINE_FUZZ=ON -DRIDGELINE_TESTS=OFF -DRIDGELINE_BENCH=OFF >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target config_fuzzer

# Seeds in the target's format: hardware YAML, a line "%%", workload YAML[, "%%", --set lines].
seeds="$build_dir/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build_dir/corpus" "$build_dir/artifacts"
seed() {  # seed NAME HARDWARE WORKLOAD [--set lines...]
  local name=$1 hardware=$2 workload=$3
  shift 3
  {
    cat "$hardware"
    printf '\n%%%%\n'
    cat "$workload"
    if [[ $# -gt 0 ]]; then
      printf '\n%%%%\n'
      printf '%s\n' "$@"
    fi
  } >"$seeds/$name"
}
n=0
for hardware in configs/hardware/*.yaml tests/bad_input/files/hardware/*.yaml; do
  seed "hw-$((n++))" "$hardware" configs/workloads/seed/gemm-4096-t64-double.yaml
done
for workload in $(find configs/workloads tests/bad_input/files/workload -name '*.yaml' | sort); do
  seed "wl-$((n++))" tests/bad_input/files/hardware/valid.yaml "$workload"
done
seed "set-$((n++))" configs/hardware/seed.yaml configs/workloads/seed/gemm-4096-t128-double.yaml \
  "hardware.hbm.bandwidth=2TB/s" "workload.tile={m: 32, n: 32, k: 32}" "workload.stages=1"
seed "set-$((n++))" configs/hardware/seed.yaml configs/workloads/vector-add.yaml \
  "workload.length=1048576" "hardware.cores.compute.throughput.fp16=512FLOP/cycle"

echo "fuzz: $n seeds, $(ls fuzz/regressions/config | wc -l) regression inputs, ${seconds} s" >&2
exec "$build_dir/fuzz/config_fuzzer" -max_total_time="$seconds" -max_len=8192 \
  -dict=fuzz/config.dict -artifact_prefix="$build_dir/artifacts/" -print_final_stats=1 "$@" \
  "$build_dir/corpus" "$seeds" fuzz/regressions/config
