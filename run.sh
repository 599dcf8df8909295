#!/usr/bin/env bash
# lbbench entry point. ./run.sh [build|test|bench|run CONFIG [args...]|report ARCHIVE [args...]|help]
#   (no argument)  install missing Debian packages, build, run configs/default.yaml, write its report
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${LBB_BUILD_DIR:-build}
PACKAGES=(
  cmake g++ make pkg-config git
  libyaml-cpp-dev libhdf5-dev hdf5-tools
  libbenchmark-dev libgtest-dev googletest
  libopenblas-openmp-dev liblapack-dev liblapacke-dev
  libssl-dev libhwloc-dev libcli11-dev nlohmann-json3-dev
  python3 python3-h5py python3-numpy python3-pandas python3-matplotlib python3-scipy
)

ensure_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "run.sh: installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

build() {
  ensure_packages
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$BUILD_DIR" -j"$(nproc)" 2>&1 | grep -E 'error|warning|Error' || true
  # The grep hides the progress lines; a failed build must still stop here.
  cmake --build "$BUILD_DIR" -j"$(nproc)" >/dev/null
}

cmd=${1:-default}
case "$cmd" in
  default)
    build
    "$BUILD_DIR/lbbench" run configs/default.yaml
    "$BUILD_DIR/lbbench" report results/default.h5
    ;;
  build)
    build
    ;;
  test)
    build
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"
    ;;
  bench)
    build
    shift
    "$BUILD_DIR/bench/lbbench_micro" "$@"
    ;;
  run)
    shift
    [ $# -ge 1 ] || { echo "usage: ./run.sh run CONFIG [lbbench run options]" >&2; exit 2; }
    build
    "$BUILD_DIR/lbbench" run "$@"
    ;;
  report)
    shift
    [ $# -ge 1 ] || { echo "usage: ./run.sh report ARCHIVE [B.h5] [lbbench report options]" >&2; exit 2; }
    build
    "$BUILD_DIR/lbbench" report "$@"
    ;;
  help|-h|--help)
    sed -n '2,3p' "$0"
    ;;
  *)
    echo "run.sh: unknown command '$cmd' (use: build, test, bench, run CONFIG, report ARCHIVE, help)" >&2
    exit 2
    ;;
esac
