#include "harness/cli/run_notes.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>

#include "core/text.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/runner.h"

namespace lbb {

void warn_oversubscribed(const std::vector<PlannedRun>& plan, const Provenance& prov) {
  int max_p = 0;  // of the runs whose threads outnumber the cores (simulated ones run none)
  for (const auto& r : plan)
    if (runs_oversubscribed(*r.spec, prov)) max_p = std::max(max_p, r.spec->processors);
  if (max_p == 0) return;
  std::cerr << "note: up to " << max_p << " processors (threads) on " << prov.available
            << " available cores: oversubscribed (recorded as oversubscribed = 1); the table "
               "ranks by the modelled makespan, which is taken from thread CPU time\n";
}

// The processors come from the config (platform.processors), never from OMP_NUM_THREADS: a
// Slurm script that sets it for its allocation would otherwise believe its runs used it.
void warn_omp_num_threads(const std::vector<PlannedRun>& plan) {
  const char* env = std::getenv("OMP_NUM_THREADS");
  if (!env || !*env) return;
  std::set<int> processors;
  for (const auto& r : plan) processors.insert(r.spec->processors);
  if (processors.size() == 1 && std::to_string(*processors.begin()) == env) return;
  std::string used;
  for (int p : processors) used += (used.empty() ? "" : ", ") + std::to_string(p);
  std::cerr << "note: OMP_NUM_THREADS=" << printable(env)
            << " is not used: each run starts platform.processors threads (here " << used
            << "); set processors in the config or with --set platform.processors=N\n";
}

void warn_timeline_unmeasured(const std::vector<PlannedRun>& plan) {
  std::set<std::string> unmeasured;
  for (const auto& r : plan)
    if (r.spec->timeline && r.spec->executor != "bsp" && r.spec->executor != "mpi")
      unmeasured.insert(r.spec->executor);
  if (unmeasured.empty()) return;
  std::string names;
  for (const std::string& e : unmeasured) names += (names.empty() ? "" : ", ") + e;
  std::cerr << "note: execution.timeline: the " << printable(names)
            << " executor records no spans (only bsp and mpi measure a timeline): export "
               "--format chrome draws those runs' modelled timeline\n";
}

void warn_trace_recording(const std::vector<PlannedRun>& plan) {
  std::set<std::string> notes;
  for (const auto& r : plan)
    if (r.spec->workload == "trace")
      for (std::string note : {trace_speeds_note(r.spec->workload_params, r.spec->speeds),
                               trace_load_note(r.spec->workload_params)})
        if (!note.empty()) notes.insert(std::move(note));
  for (const std::string& note : notes) std::cerr << "note: " << printable(note) << "\n";
}

}  // namespace lbb
