#!/usr/bin/env bash
# Clean-build wall time of one or more revisions, interleaved so that a noisy machine weighs on
# each alike: scripts/clean-build-time.sh [-n REPEATS] REV [REV...]
# Each repeat clones every revision afresh, configures it as scripts/build.sh does and times
# `cmake --build -j $(nproc)` (every target: the executable, tests, benchmarks, fuzz replays).
# Prints each time and, per revision, the median. docs/PERFORMANCE.md records the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=3
if [[ "${1:-}" == "-n" ]]; then
  repeats=$2
  shift 2
fi
[[ $# -ge 1 ]] || { echo "usage: $0 [-n REPEATS] REV [REV...]" >&2; exit 2; }
scripts/bootstrap.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A times
for ((i = 1; i <= repeats; ++i)); do
  for rev in "$@"; do
    rm -rf "$work/src" "$work/build"
    git clone -q --no-checkout . "$work/src"
    git -C "$work/src" checkout -q "$(git rev-parse "$rev")"
    cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    start=$(date +%s.%N)
    cmake --build "$work/build" -j "$(nproc)" >/dev/null
    seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
    printf '%s repeat %d: %.1f s\n' "$rev" "$i" "$seconds"
    times[$rev]+="$seconds "
  done
done
for rev in "$@"; do
  median=$(echo "${times[$rev]}" | tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  printf '%s median of %d: %.1f s\n' "$rev" "$repeats" "$median"
done
