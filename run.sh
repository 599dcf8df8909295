#!/usr/bin/env bash
# lbbench entry point. ./run.sh [build|test|bench|run CONFIG [args...]|help]
#   (no argument)  install missing Debian packages, build, run configs/default.yaml
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${LBB_BUILD_DIR:-build}
PACKAGES=(
  cmake g++ make pkg-config git
  libyaml-cpp-dev libhdf5-dev hdf5-tools
  libbenchmark-dev libgtest-dev googletest
  libopenblas-openmp-dev liblapack-dev liblapacke-dev
  libssl-dev libgsl-dev libhwloc-dev libcli11-dev nlohmann-json3-dev
  python3 python3-h5py python3-numpy python3-matplotlib python3-scipy
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

# build [TARGET]: configure once, then build TARGET (default: everything), showing cmake's
# progress lines so a first build (minutes on 2 cores) is never a blank terminal.
build() {
  ensure_packages
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    echo "run.sh: configuring $BUILD_DIR (Release)"
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  echo "run.sh: building ${1:-everything} in $BUILD_DIR"
  cmake --build "$BUILD_DIR" -j"$(nproc)" ${1:+--target "$1"}
}

cmd=${1:-default}
case "$cmd" in
  default)
    build lbbench
    "$BUILD_DIR/lbbench" run configs/default.yaml
    ;;
  build)
    build
    ;;
  test)
    build
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"
    ;;
  bench)
    build lbbench_micro
    shift
    "$BUILD_DIR/bench/lbbench_micro" "$@"
    ;;
  run)
    shift
    [ $# -ge 1 ] || { echo "usage: ./run.sh run CONFIG [lbbench run options]" >&2; exit 2; }
    build lbbench
    "$BUILD_DIR/lbbench" run "$@"
    ;;
  help|-h|--help)
    sed -n '2,3p' "$0"
    ;;
  *)
    echo "run.sh: unknown command '$cmd' (use: build, test, bench, run CONFIG, help)" >&2
    exit 2
    ;;
esac
