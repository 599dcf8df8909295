#include "harness/config/memory_estimate.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lbb {

namespace {

// A cgroup memory limit (v2, then v1); "max" or absent: none.
std::optional<double> cgroup_limit() {
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    double bytes = 0;
    if (in >> bytes && bytes > 0) return bytes;
  }
  return std::nullopt;
}

std::string gib(double bytes) {
  std::ostringstream out;
  out.precision(3);
  out << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return out.str();
}

}  // namespace

double machine_memory_bytes() {
  double have =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (const auto limit = cgroup_limit()) have = std::min(have, *limit);
  // A process limit (ulimit -v, -d) ends the run in std::bad_alloc as surely as the machine.
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      have = std::min(have, static_cast<double>(limit.rlim_cur));
  }
  return have;
}

std::optional<std::string> memory_problem(const WorkloadInfo& info, const Params& params,
                                          int processors) {
  if (!info.state_estimate) return std::nullopt;
  double need = 0;
  try {
    need = info.state_estimate(params, processors);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  const double have = machine_memory_bytes();
  if (need <= have) return std::nullopt;
  return info.name + " needs about " + gib(need) + " for its state at these parameters, more " +
         "than this machine's " + gib(have) + " (estimated from the parameters; reduce them)";
}

}  // namespace lbb
