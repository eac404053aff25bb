#!/bin/bash
# The DRAM comparison of docs/DRAM-VALIDATION.md: Ridgeline on the reference streams, against
# Ramulator 2.1's figures. Writes the traces to $TMPDIR (default /tmp) and prints the table, then
# the streams under a cycle-by-cycle model of its controller, with and without tCCD_R.
#   scripts/dram-validation.sh [build/ridgeline]
set -euo pipefail
cd "$(dirname "$0")/.."
ridgeline=${1:-build/ridgeline}
tmp=${TMPDIR:-/tmp}/ridgeline-dram-validation
mkdir -p "$tmp"
hw=configs/hardware/hbm3-stack-ramulator.yaml
trace() {  # name, make-trace arguments
  local name=$1; shift
  [ -f "$tmp/$name.trace" ] || scripts/make-trace.py "$@" -o "$tmp/$name.trace"
  printf 'workload:\n  kind: memory_trace\n  path: %s\n  access_bytes: 64B\n' "$tmp/$name.trace" \
    > "$tmp/$name.yaml"
}
trace seq sequential --count 1048576
trace rand random --count 1048576 --span 8GiB
trace unloaded random --count 20000 --span 8GiB --seed 3
# Unloaded: one access every 64 memory ticks (64 x 625 ps = 40 ns), whatever is in flight.
echo "  issue_interval: 40ns" >> "$tmp/unloaded.yaml"
run() {  # label, reference, what to compare (bw or lat), workload, --set values...
  local label=$1 reference=$2 what=$3 workload=$4; shift 4
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  "$ridgeline" run "$hw" "$tmp/$workload.yaml" "${sets[@]}" --quiet --json "$tmp/out.json"
  python3 - "$label" "$reference" "$what" "$tmp/out.json" "$workload" "$*" <<'PY'
import json, sys
label, reference, what, path, workload, sets = sys.argv[1:]
d = json.load(open(path))
t, dram = d["simulated"]["trace"], d["components"]["dram"]
reads = max(1, dram["served_reads"])
latency = (dram["read_queueing_s"] + dram["read_service_s"]) / reads * 1e9
reference = float(reference)
command = "ridgeline run %s %s.yaml%s" % ("hbm3-stack-ramulator.yaml", workload,
                                          "".join(" --set " + s for s in sets.split()))
if what == "bw":
    mine = 100 * t["fraction_of_peak_bandwidth"]
    print("| %s | %.1f %% (%.1f GB/s), read latency %.1f ns | %.1f %% | %+.1f pp | `%s` |" %
          (label, mine, t["achieved_bytes_per_s"] / 1e9, latency, reference, mine - reference,
           command))
else:
    print("| %s | %.1f ns | %.1f ns | %+.1f %% | `%s` |" %
          (label, latency, reference, 100 * (latency / reference - 1), command))
PY
}
echo "| stream | Ridgeline | Ramulator 2.1 | difference | command |"
echo "|---|---|---|---|---|"
run "MOP4CLXOR seq" 90.3 bw seq
run "MOP4CLXOR rand" 28.5 bw rand
run "RoBaRaCoCh seq" 50.5 bw seq hardware.hbm.address_mapping=RoBaRaCoCh
run "RoBaRaCoCh rand" 50.3 bw rand hardware.hbm.address_mapping=RoBaRaCoCh
run "MOP4CLXOR seq, read latency" 57.6 lat seq
run "MOP4CLXOR rand, read latency" 101.5 lat rand
run "unloaded random read latency" 46.6 lat unloaded
# The four streams under a cycle-by-cycle model of Ramulator 2.1's HBM controller
# (docs/DRAM-VALIDATION.md, "RoBaRaCoCh, sequential"), with HBM3's tCCD_R (3 CK) and without it
# (tCCD_S, 2 CK, as the reference file leaves it out): a few minutes in all.
echo
for mapping in RoBaRaCoCh MOP4CLXOR; do
  for pattern in sequential random; do
    for tccd_r in 3 2; do
      scripts/hbm-controller-model.py --mapping "$mapping" --pattern "$pattern" --tccd-r "$tccd_r"
    done
  done
done
