#!/usr/bin/env bash
# Writes the JSON report of every bundled example into one folder, so that two builds can be
# compared byte for byte (a refactoring must leave them identical):
#   scripts/example-reports.sh BINARY OUT_DIR [--analytical]
#   diff -r OUT_BEFORE OUT_AFTER
# Examples: `analyze` of every bundled workload on every bundled hardware file (pairs the rules
# refuse leave their error message instead), `run` of every workload on the machine it was
# written for (the seed machine, its question's machine, the H100 preset for the tensor-core and
# question 2 cases, an HBM3 stack for the traces) and of the vector add on every hardware file,
# and every bundled sweep with --analytical. --analytical skips the simulations.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "$1")
out=$2
analytical_only=${3:-}
mkdir -p "$out"
jobs=$(nproc)

name_of() { echo "$1" | sed 's|^configs/||; s|\.yaml$||; s|/|_|g'; }

# One line a job: command, hardware, workload. Errors are kept (stderr and exit status), so a
# pair the rules refuse compares too.
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
hardware_files=$(find configs -path '*hardware*' -name '*.yaml' -o -name machine.yaml | sort)
workload_files=$(find configs -name '*.yaml' ! -path '*hardware*' ! -path '*sweeps*' \
                 ! -name machine.yaml | sort)
for h in $hardware_files; do
  for w in $workload_files; do echo "analyze $h $w"; done
done >>"$plan"
if [[ "$analytical_only" != "--analytical" ]]; then
  for w in $workload_files; do
    case "$w" in
      configs/workloads/seed/*|configs/workloads/vector-add.yaml) h=configs/hardware/seed.yaml ;;
      configs/workloads/tensor-core/*) h=configs/hardware/h100-sxm5-80gb.yaml ;;
      configs/workloads/memory/*) h=configs/hardware/hbm3-stack.yaml ;;
      configs/questions/q2-*) h=configs/hardware/h100-sxm5-80gb.yaml ;;
      configs/questions/q3-*) h=configs/questions/q3-l2-reuse/hardware/seed-l2-8mib.yaml ;;
      configs/questions/*) h=$(dirname "$w")/machine.yaml ;;
    esac
    echo "run $h $w"
  done >>"$plan"
  for h in $hardware_files; do echo "run $h configs/workloads/vector-add.yaml"; done >>"$plan"
fi

run_one() {
  local binary=$1 out=$2 command=$3 hardware=$4 workload=$5
  local stem
  stem="$command--$(name_of "$hardware")--$(name_of "$workload")"
  local status=0
  "$binary" "$command" "$hardware" "$workload" --quiet --json "$out/$stem.json" \
    2>"$out/$stem.stderr" || status=$?
  echo "$status" >"$out/$stem.status"
}
export -f run_one name_of
parallel -j "$jobs" --colsep ' ' run_one "$binary" "$out" {1} {2} {3} <"$plan"

for s in configs/sweeps/*.yaml; do
  stem=sweep--$(name_of "$s")
  rm -rf "$out/$stem"
  "$binary" sweep "$s" --analytical --out "$out/$stem" >/dev/null 2>&1 || echo "sweep $s failed" >&2
  # The manifest and summary may name the folder; the results are what must not change.
  find "$out/$stem" -type f ! -name 'results.*' ! -name 'summary.json' -delete
done
echo "$(wc -l <"$plan") reports and $(ls configs/sweeps/*.yaml | wc -l) sweeps in $out"
