#!/usr/bin/env bash
# The seed note's 4096 x 4096 FP32 GEMM study on the bundled seed machine: builds Ridgeline, then
# prints the note's analytical table and the simulated figures beside it (no reuse, t = 32, 64,
# 128, each single- and double-buffered).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
build_dir=${RIDGELINE_BUILD_DIR:-build}
workloads=configs/workloads/seed
exec "$build_dir/ridgeline" study configs/hardware/seed.yaml \
  "$workloads/gemm-4096-no-reuse.yaml" \
  "$workloads/gemm-4096-t32-single.yaml" "$workloads/gemm-4096-t32-double.yaml" \
  "$workloads/gemm-4096-t64-single.yaml" "$workloads/gemm-4096-t64-double.yaml" \
  "$workloads/gemm-4096-t128-single.yaml" "$workloads/gemm-4096-t128-double.yaml" "$@"
