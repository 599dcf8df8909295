#pragma once
// Where and how a result was produced (google/benchmark's context block, per run).
#include <string>

namespace lbb {

struct Provenance {
  std::string git_sha, compiler, flags, host, cpu_model, omp_env, hdf5_version, openblas;
  int cores = 0;             // physical cores (hwloc)
  int hardware_threads = 0;  // processing units (hwloc)
  int available = 0;         // processors this process may run on (affinity mask)
  double load_average = 0;   // 1-minute load average when the invocation began (/proc/loadavg)
  std::string invocation;    // one id per lbbench invocation, sortable by start time
};

Provenance gather_provenance();
std::string iso_time_now();  // UTC, seconds precision

}  // namespace lbb
