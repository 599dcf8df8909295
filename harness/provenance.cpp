#include "harness/provenance.h"

#include <cblas.h>
#include <hdf5.h>
#include <hwloc.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <vector>

#include "lbb/build_info.h"

extern char** environ;

namespace lbb {

namespace {

std::string omp_environment() {
  std::vector<std::string> vars;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    if (kv.rfind("OMP_", 0) == 0 || kv.rfind("GOMP_", 0) == 0) vars.push_back(kv);
  }
  std::sort(vars.begin(), vars.end());
  std::string out;
  for (const auto& v : vars) out += v + ";";
  const char* bind = "false";
  switch (omp_get_proc_bind()) {
    case omp_proc_bind_false:
      bind = "false";
      break;
    case omp_proc_bind_true:
      bind = "true";
      break;
    case omp_proc_bind_master:
      bind = "master";
      break;
    case omp_proc_bind_close:
      bind = "close";
      break;
    case omp_proc_bind_spread:
      bind = "spread";
      break;
  }
  out += std::string("proc_bind=") + bind + ";places=" + std::to_string(omp_get_num_places());
  return out;
}

// UTC start time to the microsecond and the process id: later invocations sort after earlier ones.
std::string invocation_id() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto us =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
      1000000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  const std::size_t len = std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%S", &tm);
  std::snprintf(buf + len, sizeof buf - len, ".%06lldZ-%d", static_cast<long long>(us),
                static_cast<int>(getpid()));
  return buf;
}

}  // namespace

Provenance gather_provenance() {
  Provenance p;
  p.git_sha = build::kGitSha;
  p.compiler = build::kCompiler;
  p.flags = build::kFlags;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  p.host = host;
  p.omp_env = omp_environment();
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  p.hdf5_version = std::to_string(maj) + "." + std::to_string(min) + "." + std::to_string(rel);
  p.openblas = openblas_get_config();
  p.available = omp_get_num_procs();
  if (std::ifstream loadavg("/proc/loadavg"); !(loadavg >> p.load_average)) p.load_average = 0;
  p.invocation = invocation_id();

  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) == 0) {
    if (hwloc_topology_load(topo) == 0) {
      p.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
      p.hardware_threads = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
      if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0))
        if (const char* model = hwloc_obj_get_info_by_name(pkg, "CPUModel")) p.cpu_model = model;
    }
    hwloc_topology_destroy(topo);
  }
  if (p.cpu_model.empty()) p.cpu_model = "unknown";
  return p;
}

std::string iso_time_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace lbb
