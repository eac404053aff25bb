#!/usr/bin/env bash
# Regenerates the pictures the README shows, with Ridgeline's own commands:
#   docs/images/seed-roofline.svg  every row of the seed study on one roofline
#   docs/images/report.png         the HTML report of one run, rendered by headless Chromium
# Chromium comes from Debian's packages; it is installed here if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
build_dir=${RIDGELINE_BUILD_DIR:-build}
out=docs/images
mkdir -p "$out"

scripts/seed-study.sh --roofline "$out/seed-roofline.svg" >/dev/null

report=$(mktemp --suffix=.html)
profile=$(mktemp -d)
trap 'rm -rf "$report" "$profile"' EXIT
"$build_dir/ridgeline" run configs/hardware/seed.yaml configs/workloads/seed/gemm-4096-t128-double.yaml \
  --quiet --report "$report"

if ! command -v chromium >/dev/null; then
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq chromium >&2
fi
# No network for the page (it needs none) and none for the browser's own services.
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1000,1500 \
  --screenshot="$out/report.png" "file://$report" 2>/dev/null
echo "wrote $out/seed-roofline.svg and $out/report.png"
