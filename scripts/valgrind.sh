#!/usr/bin/env bash
# Runs short simulations and an analysis under valgrind's memcheck: any invalid read or write, use
# of uninitialised memory, or memory definitely or indirectly lost fails the script. Memory still
# reachable at exit (SystemC's kernel and its globals, which it never frees) is not an error.
# Usage: scripts/valgrind.sh   (builds build/ first)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh valgrind
scripts/build.sh >/dev/null
build_dir=${RIDGELINE_BUILD_DIR:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check() {  # check EXIT_CODE NAME ridgeline-arguments...
  local expected=$1 name=$2
  shift 2
  local status=0
  # The executable's allocator is mimalloc: memcheck replaces its malloc and free as it would
  # glibc's (somalloc names the library that holds them). mimalloc's operator delete[] reaches
  # memcheck as free, so new[] / delete[] pairs would read as mismatched: that check is the
  # sanitized build's (scripts/sanitize.sh, glibc's allocator, ASan's alloc-dealloc-mismatch).
  valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --soname-synonyms=somalloc=libmimalloc.so.2 --show-mismatched-frees=no --track-origins=yes \
    --log-file="$out/$name.log" "$build_dir/ridgeline" "$@" \
    >/dev/null 2>"$out/$name.stderr" || status=$?
  if [[ $status -ne $expected || -s "$out/$name.log" ]]; then
    echo "valgrind: $name: FAILED (exit $status, expected $expected)" >&2
    cat "$out/$name.log" "$out/$name.stderr" >&2
    exit 1
  fi
  echo "valgrind: $name: clean"
}
seed=configs/hardware/seed.yaml
check 0 gemm-double-buffered run $seed configs/workloads/seed/gemm-4096-t32-double.yaml \
  --set workload.m=256 --set workload.n=256 --set workload.k=256 --json "$out/gemm.json" \
  --csv "$out/gemm.csv"
check 0 gemm-no-reuse run $seed configs/workloads/seed/gemm-4x4-no-reuse.yaml
check 0 vector-add-short-last-block run $seed configs/workloads/vector-add.yaml \
  --set workload.length=1000003
check 0 analyze analyze $seed configs/workloads/seed/gemm-4096-t128-double.yaml --json "$out/a.json"
check 2 bad-input analyze $seed configs/workloads/seed/gemm-4096-t128-double.yaml \
  --set workload.tile.m=8192
# A graph read, fused and ordered (its runs are child processes, which valgrind does not follow),
# and a transformer of two layers with its pictures.
check 0 graph-fused analyze configs/hardware/h100-sxm5-80gb.yaml \
  configs/workloads/models/fused-bias-gelu.yaml --json "$out/g.json"
check 0 transformer analyze configs/hardware/h100-sxm5-80gb.yaml \
  configs/workloads/models/llama-3-8b-decode.yaml --set workload.layers=2 \
  --roofline "$out/t.svg" --report "$out/t.html"
# Streams at once, with their Gantt chart; and a model larger than the HBM, refused.
check 0 streams analyze configs/hardware/h100-sxm5-80gb.yaml \
  configs/workloads/models/decode-qkv-streams.yaml --report "$out/s.html" --json "$out/s.json"
check 2 graph-too-large analyze configs/hardware/h100-sxm5-80gb.yaml \
  configs/workloads/models/llama-2-70b-decode.yaml
# An L2 in two partitions, warmed with the trace's bytes (more than it holds), and the run's busy
# profile.
printf 'workload:\n  kind: memory_trace\n  pattern: {order: random, accesses: 2000, span: 64MiB, operation: load}\n' \
  >"$out/chase.yaml"
check 0 l2-partitions-warm-chase run configs/hardware/seed-l2.yaml "$out/chase.yaml" \
  --l2-resident data --set hardware.l2.partitions=2 --set hardware.l2.far_hit_latency=300ns \
  --busy-profile "$out/busy.json"
