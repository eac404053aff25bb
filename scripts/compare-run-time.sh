#!/usr/bin/env bash
# Wall time of `ridgeline run` of the seed table's cases with two executables, interleaved run by
# run so that a noisy machine weighs on both alike:
#   scripts/compare-run-time.sh [-n REPEATS] BEFORE AFTER [HARDWARE]
# BEFORE and AFTER are ridgeline executables (e.g. one built from another revision's worktree);
# HARDWARE defaults to configs/hardware/seed.yaml. Prints, per case, each executable's median
# wall time and after / before. docs/PERFORMANCE.md records the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=5
if [[ "${1:-}" == "-n" ]]; then
  repeats=$2
  shift 2
fi
[[ $# -ge 2 ]] || { echo "usage: $0 [-n REPEATS] BEFORE AFTER [HARDWARE]" >&2; exit 2; }
before=$1
after=$2
hardware=${3:-configs/hardware/seed.yaml}
cases=(gemm-4096-no-reuse gemm-4096-t32-double gemm-4096-t64-double gemm-4096-t128-double)

wall() {  # seconds one run of `$1 run HARDWARE WORKLOAD` takes
  local start
  start=$(date +%s.%N)
  "$1" run "$hardware" "configs/workloads/seed/$2.yaml" --quiet >/dev/null
  awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-24s %12s %12s %9s\n' case "before (s)" "after (s)" after/before
for c in "${cases[@]}"; do
  b="" a=""
  for ((i = 1; i <= repeats; ++i)); do
    b+="$(wall "$before" "$c") "
    a+="$(wall "$after" "$c") "
  done
  mb=$(echo "$b" | median)
  ma=$(echo "$a" | median)
  printf '%-24s %12.4f %12.4f %9.4f\n' "$c" "$mb" "$ma" "$(awk -v a="$ma" -v b="$mb" 'BEGIN { print a / b }')"
done
