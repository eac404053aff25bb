#!/usr/bin/env bash
# Regenerates the pictures the README shows, with Ridgeline's own commands:
#   docs/images/seed-roofline.svg  every row of the seed study on one roofline
#   docs/images/report.png         the HTML report of one run, rendered by headless Chromium
#   docs/images/sweep-report.png   the report of configs/sweeps/tile-capacity.yaml (simulated;
#                                  its top: summary and heat maps), likewise
#   docs/images/gtkwave-double-buffering.png, gtkwave-single-buffering.png
#                                  core 0 of the seed's t = 128 GEMM with two stages and with
#                                  one: `ridgeline run --vcd` of 60 us in the run's steady state,
#                                  opened in GTKWave with the save file Ridgeline writes beside the
#                                  VCD, on a virtual X display (Xvfb), captured with xwd
# Chromium, GTKWave, Xvfb, xwd and netpbm come from Debian's packages; they are installed here if
# missing.
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
# $1: the page, $2: the PNG, $3: the window's height.
screenshot() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --window-size=1000,"$3" \
    --screenshot="$2" "file://$1" 2>/dev/null
}
screenshot "$report" "$out/report.png" 1500

# In the README's own results folder, so that the page names the path a reader would use.
rm -rf results/capacity
"$build_dir/ridgeline" sweep configs/sweeps/tile-capacity.yaml --out results/capacity \
  -j "$(nproc)" --report results/capacity/report.html >/dev/null 2>&1
screenshot "$PWD/results/capacity/report.html" "$out/sweep-report.png" 1280

missing=()
for tool in gtkwave:gtkwave xvfb-run:xvfb xwd:x11-apps xwdtopnm:netpbm xauth:xauth; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool##*:}")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
fi
waves=$(mktemp -d)
trap 'rm -rf "$report" "$profile" "$waves"' EXIT
# Opens $1 (a .gtkw) in GTKWave, waits for it to draw, captures the screen into $2 (PNG).
cat >"$waves/shot.sh" <<'SHOT'
#!/usr/bin/env bash
gtkwave --save "$1" >/dev/null 2>&1 &
pid=$!
sleep 6
xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng >"$2"
kill "$pid"
SHOT
chmod +x "$waves/shot.sh"
for stages in double single; do
  "$build_dir/ridgeline" run configs/hardware/seed.yaml \
    "configs/workloads/seed/gemm-4096-t128-$stages.yaml" --quiet --vcd "$waves/$stages.vcd" \
    --trace top.core0 --trace top.hbm --trace top.flop_per_s \
    --trace-start 1020us --trace-end 1080us --trace-rate-window 500ns
  xvfb-run -a -s "-screen 0 1400x900x24" "$waves/shot.sh" "$waves/$stages.gtkw" \
    "$out/gtkwave-$stages-buffering.png"
done
echo "wrote $out/seed-roofline.svg, $out/report.png, $out/sweep-report.png and $out/gtkwave-{double,single}-buffering.png"
