#include "harness/run/provenance.h"

#include <cblas.h>
#include <hdf5.h>
#include <hwloc.h>
#include <omp.h>
#include <unistd.h>

#include <strings.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <vector>

#include "harness/results/result_writer.h"
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

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpuinfo_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0)
      if (auto colon = line.find(':'); colon != std::string::npos) return line.substr(colon + 2);
  return "";
}

}  // namespace

InvocationRecord invocation_record(const Provenance& p, const std::string& command,
                                   const std::string& slice) {
  InvocationRecord r;
  r.id = p.invocation;
  r.attributes = {{"started", iso_time_now()},
                  {"command", command},
                  {"host", p.host},
                  {"git_sha", p.git_sha},
                  {"git_dirty", std::int64_t{p.git_dirty ? 1 : 0}},
                  {"compiler", p.compiler},
                  {"flags", p.flags},
                  {"build_type", p.build_type},
                  {"cpu_model", p.cpu_model},
                  {"cpu_governor", p.cpu_governor},
                  {"omp_env", p.omp_env},
                  {"openblas", p.openblas},
                  {"openblas_core", p.openblas_core},
                  {"hdf5_version", p.hdf5_version},
                  {"slice", slice},
                  {"hwloc_topology", p.hwloc_xml}};
  return r;
}

std::string openblas_fallback_warning(const Provenance& p) {
  // OpenBLAS's cores older than AVX2 (Haswell); on a CPU with AVX2 one of these means OpenBLAS
  // did not recognise the CPU and fell back to a generic kernel.
  static const char* const kOld[] = {"Prescott", "Core2",   "Penryn",      "Dunnington", "Nehalem",
                                     "Atom",     "Generic", "Sandybridge", "Barcelona",  "Opteron",
                                     "Katmai",   "Banias",  "Athlon"};
  bool old = false;
  for (const char* name : kOld) old |= strcasecmp(p.openblas_core.c_str(), name) == 0;
  if (!old || !__builtin_cpu_supports("avx2")) return "";
  return "warning: OpenBLAS chose its " + p.openblas_core + " kernel on a CPU with AVX2 (" +
         p.cpu_model +
         "): it does not know this CPU and fell back to a generic kernel; dense kernels may run "
         "several times slower (set OPENBLAS_CORETYPE, e.g. Haswell or SkylakeX)";
}

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
  p.openblas_core = openblas_get_corename();
  p.available = omp_get_num_procs();
  p.build_type = build::kBuildType;
  p.git_dirty = p.git_sha.ends_with("-dirty");
  p.cpu_governor = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  if (p.cpu_governor.empty()) p.cpu_governor = "unknown";

  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) == 0) {
    if (hwloc_topology_load(topo) == 0) {
      p.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
      p.hardware_threads = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
      if (hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0))
        if (const char* model = hwloc_obj_get_info_by_name(pkg, "CPUModel")) p.cpu_model = model;
      char* xml = nullptr;
      int length = 0;
      if (hwloc_topology_export_xmlbuffer(topo, &xml, &length, 0) == 0 && xml) {
        p.hwloc_xml = xml;
        hwloc_free_xmlbuffer(topo, xml);
      }
    }
    hwloc_topology_destroy(topo);
  }
  if (p.cpu_model.empty()) p.cpu_model = cpuinfo_model();
  if (p.cpu_model.empty()) p.cpu_model = "unknown";
  std::string stamp = iso_time_now();
  stamp.erase(
      std::remove_if(stamp.begin(), stamp.end(), [](char c) { return c == '-' || c == ':'; }),
      stamp.end());
  // Microseconds after the seconds, so that ids sort by start even within one second (`table
  // --invocation latest`): 20261128T103949Z-123456-9f3a1c2e.
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  char micro[16];
  std::snprintf(
      micro, sizeof micro, "%06lld",
      static_cast<long long>(
          std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count() % 1000000));
  p.invocation = stamp + "-" + micro + "-" + random_hex(4);
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

std::string random_hex(int bytes) {
  thread_local std::random_device device;  // opened once: a run's id cost 40 us of iqbal1986's
  std::string out;
  char buf[12];
  for (int i = 0; i < bytes; i += 4) {
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(device()));
    out.append(buf, 2 * static_cast<std::size_t>(std::min(4, bytes - i)));
  }
  return out;
}

double load_average() {
  // glibc's getloadavg asks sysinfo(2): 0.3 us, where a stdio read of /proc/loadavg took 5 us.
  double load = -1;
  return getloadavg(&load, 1) == 1 ? load : -1;
}

}  // namespace lbb
