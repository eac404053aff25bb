#!/usr/bin/env bash
# Installs Ridgeline's build and test dependencies from Debian's packages.
# Quiet and fast when everything is already there: it only asks dpkg which packages are missing.
# Usage: scripts/bootstrap.sh [fuzz] [valgrind]   (extra tools for scripts/fuzz.sh, valgrind.sh)
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  libsystemc-dev        # SystemC 2.3 + TLM-2.0 kernel
  libboost-graph-dev    # program dependency graphs
  libyaml-cpp-dev       # configuration files
  libcli11-dev          # command line
  nlohmann-json3-dev    # JSON output
  libfmt-dev            # text output
  libonnx-dev libprotobuf-dev  # ONNX models read into graph workloads (sim/onnx)
  libmimalloc-dev       # the executable's allocator
  libgtest-dev libgmock-dev  # tests
  libxml2-dev           # tests parse the SVG and HTML outputs
  libbenchmark-dev      # bench/
  gtkwave               # tests convert a VCD with its vcd2fst
  parallel              # GNU parallel: the sweep test runs shards through it
  pybind11-dev python3-dev          # the Python package (python/)
  python3-pandas python3-numpy python3-yaml python3-matplotlib  # what it and its notebook use
  python3-pytest                    # its tests
  python3-pip python3-setuptools python3-wheel  # installing it without network (docs/PYTHON.md)
)
for extra in "$@"; do
  case "$extra" in
    fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;  # libFuzzer and its sanitizer runtimes
    valgrind) packages+=(valgrind) ;;
    *) echo "bootstrap: unknown extra '$extra' (fuzz, valgrind)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "bootstrap: installing ${missing[*]}" >&2
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >&2 || true
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
