#!/usr/bin/env bash
# lbbench entry point; `./run.sh help` lists the commands.
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${LBB_BUILD_DIR:-build}
PACKAGES=(
  cmake g++ make pkg-config git
  libyaml-cpp-dev libhdf5-dev hdf5-tools
  libbenchmark-dev libgtest-dev googletest
  libopenblas-openmp-dev liblapack-dev liblapacke-dev
  libssl-dev libgsl-dev libhwloc-dev libcli11-dev nlohmann-json3-dev zlib1g-dev libdeflate-dev libmetis-dev libscotch-dev libre2-dev libbrotli-dev
  openmpi-bin libopenmpi-dev
  python3 python3-dev python3-h5py python3-numpy python3-pandas python3-matplotlib python3-yaml python3-jsonschema python3-brotli
)
# Only ./run.sh test --sanitize installs these: its libFuzzer targets are built with clang.
FUZZ_PACKAGES=(clang libclang-rt-14-dev libomp-dev)

usage() {
  cat <<'EOF'
usage: ./run.sh [COMMAND [ARGS...]]
  (none)              install missing packages, build lbbench, run configs/default.yaml, report it
  build               build everything (lbbench, tests, benchmarks) in build/
  test                build everything and run the test suite
  test --sanitize     the test suite under ASan+UBSan, then the fuzz targets (installs clang)
  bench [ARGS...]     build and run the Google Benchmark micro-benchmarks (bench/)
  run CONFIG [ARGS]   build lbbench and run a config: lbbench run CONFIG ARGS
  report SET [ARGS]   build lbbench and write a result set's report: lbbench report SET ARGS
  help                this list
EOF
}

ensure_packages() {  # ensure_packages PACKAGE...
  local missing=()
  for p in "$@"; do
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

build() {  # build [DIR [cmake configure options...] [-- build options...]]
  ensure_packages "${PACKAGES[@]}"
  local dir=${1:-$BUILD_DIR} configure=() targets=()
  [ $# -gt 0 ] && shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do configure+=("$1"); shift; done
  [ $# -gt 0 ] && shift && targets=("$@")
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    echo "run.sh: configuring $dir"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >/dev/null
  fi
  # cmake's [NN%] progress lines stay visible: a first build takes minutes on 2 cores.
  echo "run.sh: building ${targets[*]:-everything} in $dir"
  cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
}

# ./run.sh test --sanitize: the whole test suite built with ASan+UBSan (GCC, build-asan), then
# each libFuzzer target (clang, build-fuzz) for LBB_FUZZ_SECONDS. Any finding fails it.
sanitize_test() {
  local asan=${LBB_ASAN_DIR:-build-asan} fuzz=${LBB_FUZZ_DIR:-build-fuzz}
  local seconds=${LBB_FUZZ_SECONDS:-25}
  ensure_packages "${FUZZ_PACKAGES[@]}"
  # Batches of 8, not the release build's 16: each file meets other batch-mates, so one that
  # compiles only thanks to a mate's includes fails in one of the two builds. Compiled alone, the
  # libraries took 4-5x the CPU (docs/evidence/ci-time-2026-12-02.md). -g1: line tables for the
  # sanitizers' stack traces, without the variables' debug information, which no test reads.
  local debug=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1)
  build "$asan" "${debug[@]}" -DLBB_SANITIZE=ON -DLBB_BENCH=OFF -DLBB_UNITY_BATCH=8
  # Label uninstrumented (tests/CMakeLists.txt): tests that run none of this build's code.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$asan" --output-on-failure -j"$(nproc)" -LE uninstrumented
  # The fuzz build also goes without MPI (LBB_MPI=OFF): the harness as a machine without Open MPI
  # builds it, compiled on every run of this command.
  build "$fuzz" "${debug[@]}" -DLBB_FUZZ=ON -DLBB_BENCH=OFF -DLBB_MPI=OFF \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -- --target lbb_fuzz_config lbb_fuzz_results lbb_fuzz_options
  # The sets whose parts the results targets damage, made by the lbbench just built (none is
  # committed): a smoke, a default and a simulated set, and a part of the older layout.
  local seeds_dir=$fuzz/seed-sets
  fuzz/seed_sets.sh "$asan/lbbench" "$seeds_dir"
  for target in config results options; do
    mkdir -p "$fuzz/corpus/$target" "$fuzz/findings"
    local seeds=() dict=()
    [ "$target" = config ] && seeds=(configs fuzz/seeds/config) && dict=(-dict=fuzz/config.dict)
    [ "$target" = options ] && seeds=(fuzz/seeds/options) && dict=(-dict=fuzz/options.dict)
    echo "fuzzing the $target reader for ${seconds} s"
    local log="$fuzz/findings/$target.log"
    # Resealed damages reach HDF5, which leaks a few bytes of its own on some error paths.
    if ! LBB_FUZZ_PARTS=$seeds_dir LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan_hdf5.supp \
      "$fuzz/fuzz/lbb_fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$fuzz/findings/$target-" "${dict[@]}" "$fuzz/corpus/$target" \
      "${seeds[@]}" >"$log" 2>&1; then
      tail -n 60 "$log"
      echo "run.sh: the $target fuzz target found a crash (input saved in $fuzz/findings/)" >&2
      return 1
    fi
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
  done
  echo "fuzzing the report's reader and the README's recipe (Python) for ${seconds} s"
  /usr/bin/python3 fuzz/report_reader_fuzz.py "$seconds" "$fuzz/findings" "$seeds_dir/smoke" \
    "$seeds_dir/default" "$seeds_dir/simulated" --older "$seeds_dir/dense"
}

cmd=${1:-default}
case "$cmd" in
  default)
    build "$BUILD_DIR" -- --target lbbench
    "$BUILD_DIR/lbbench" run configs/default.yaml
    "$BUILD_DIR/lbbench" report results/default
    ;;
  build)
    build
    ;;
  test)
    if [ "${2:-}" = "--sanitize" ]; then
      sanitize_test
    else
      build
      ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"
    fi
    ;;
  bench)
    build "$BUILD_DIR" -- --target lbbench_micro
    shift
    "$BUILD_DIR/bench/lbbench_micro" "$@"
    ;;
  run)
    shift
    [ $# -ge 1 ] || { echo "usage: ./run.sh run CONFIG [lbbench run options]" >&2; exit 2; }
    build "$BUILD_DIR" -- --target lbbench
    "$BUILD_DIR/lbbench" run "$@"
    ;;
  report)
    shift
    [ $# -ge 1 ] || { echo "usage: ./run.sh report SET [lbbench report options]" >&2; exit 2; }
    build "$BUILD_DIR" -- --target lbbench
    "$BUILD_DIR/lbbench" report "$@"
    ;;
  help|-h|--help)
    usage
    ;;
  *)
    echo "run.sh: unknown command '$cmd'" >&2
    usage >&2
    exit 2
    ;;
esac
