#!/bin/bash
# Measures the NVIDIA GPU at hand and writes a validation file of its cases:
#   bench/gpu/run.sh [OUT_DIR]          (default: $OUT if set, else build/gpu-bench)
# About five minutes. Needs nvidia-smi; the CUDA probes need nvcc, the GEMMs PyTorch; each part
# missing is skipped and said. Writes to OUT_DIR: gpu.csv (name, driver, clocks), clocks.txt (the
# SM clock sampled every 200 ms while the benchmarks run), results.jsonl (one line a
# measurement), nvidia-smi.txt (clocks, power and throttle reasons before the run) and
# measured-<preset>-<date>.yaml (bench/gpu/to_validation.py), to copy into
# configs/validation/. Never part of the build or of CI.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/../../build/gpu-bench}}
mkdir -p "$out"
if ! command -v nvidia-smi > /dev/null; then
  echo "run.sh: no nvidia-smi, so no NVIDIA GPU to measure" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit,compute_cap \
  --format=csv,noheader | head -1 | tee "$out/gpu.csv"
IFS=, read -r name driver max_clock _ _ capability < "$out/gpu.csv"
name=$(echo "$name" | sed 's/^ *//; s/ *$//')
driver=$(echo "$driver" | tr -d ' ')
arch=$(echo "${capability:-9.0}" | tr -d ' .')

results="$out/results.jsonl"
: > "$results"
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -lms 200 > "$out/clocks.txt" &
sampler=$!
trap 'kill $sampler 2> /dev/null' EXIT

nvidia-smi -q -d CLOCK,POWER,PERFORMANCE > "$out/nvidia-smi.txt"
if command -v nvcc > /dev/null; then
  binary=$(mktemp -d)/probes
  if nvcc -O3 -std=c++17 -arch="sm_$arch" -o "$binary" "$here/probes.cu"; then
    timeout 300 "$binary" | tee -a "$results"
  else
    echo "run.sh: probes.cu did not build; bandwidth, latency and FMA probes skipped" >&2
  fi
else
  echo "run.sh: no nvcc; bandwidth, latency and FMA probes skipped" >&2
fi
timeout 300 python3 "$here/gemm.py" | tee -a "$results"

kill $sampler 2> /dev/null
# The SM clock under load: the median of the samples above 60 % of the maximum (idle gaps out).
load_clock=$(awk -v max="${max_clock//[^0-9]/}" '$1 > 0.6 * max { print $1 }' "$out/clocks.txt" \
  | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "?" }')
python3 "$here/to_validation.py" --results "$results" --gpu "$name" --driver "$driver" \
  --clocks "${max_clock// /} at most, a median of $load_clock MHz over the run (each power case's
# detail gives the clock under its own load)" \
  --date "$(date +%F)" --out "$out"
