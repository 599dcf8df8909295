#pragma once
// Where and how a result was produced (google/benchmark's context block, per run).
#include <string>

namespace lbb {

struct InvocationRecord;

struct Provenance {
  std::string git_sha, compiler, flags, host, cpu_model, omp_env, hdf5_version, openblas;
  std::string build_type, cpu_governor, openblas_core, hwloc_xml;
  bool git_dirty = false;
  int cores = 0;             // physical cores (hwloc)
  int hardware_threads = 0;  // processing units (hwloc)
  int available = 0;         // processors this process may run on (affinity mask)
  std::string invocation;    // this invocation's id: UTC start time and random hex
};

Provenance gather_provenance();

// The invocation's provenance as a result set stores it, a row of each part's invocations table.
InvocationRecord invocation_record(const Provenance& p, const std::string& command,
                                   const std::string& slice);

// A warning when OpenBLAS chose a kernel older than the CPU (a CPU it does not know: seen on a
// 16-core Xeon node as 3-4x slower matmul modules), else "".
std::string openblas_fallback_warning(const Provenance& p);
std::string iso_time_now();         // UTC, seconds precision
std::string random_hex(int bytes);  // from std::random_device
double load_average();              // 1-minute load average (getloadavg), -1 if unreadable

}  // namespace lbb
