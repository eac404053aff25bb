#!/bin/bash
# Which kernels the measured cases ran, and what each did, by Nsight Compute:
#   bench/gpu/profile.sh [OUT_DIR]      (default: $OUT if set, else build/gpu-bench)
# Writes OUT_DIR/kernels.csv: for each GEMM of gemm.py (one launch of each shape and type, after
# warm-up) and each launch of the probes' pointer chase and bytes-in-flight kernels, the kernel's
# name, grid, block and cluster, its duration, the SM clock while it ran, and its DRAM and L2
# traffic. It tells which kernel (and so which tile) the libraries chose for a shape, and whether
# the probes' kernels moved the bytes they were written to; it sets no figure. The clocks are left
# as the GPU sets them (--clock-control none). About two minutes; needs nvcc, PyTorch and ncu.
# Never part of the build or of CI.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/../../build/gpu-bench}}
mkdir -p "$out"
for tool in ncu nvcc nvidia-smi; do
  if ! command -v "$tool" > /dev/null; then
    echo "profile.sh: no $tool; nothing profiled" >&2
    exit 1
  fi
done
capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size
metrics+=,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct
profile() {
  ncu --clock-control none --csv --page raw --metrics "$metrics" "$@"
}
binary=$(mktemp -d)/probes
nvcc -O3 -std=c++17 -arch="sm_${capability:-90}" -o "$binary" "$here/probes.cu" || exit 1
{
  RIDGELINE_GEMM_ONCE=1 profile python3 "$here/gemm.py"
  profile --kernel-name regex:'chase_kernel|in_flight_kernel' "$binary"
} 2> "$out/profile-errors.txt" | grep -v '^{\|^==' > "$out/kernels.csv"
echo "profile.sh: $(grep -c . "$out/kernels.csv") lines in $out/kernels.csv"
