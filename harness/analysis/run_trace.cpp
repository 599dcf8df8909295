#include "harness/analysis/run_trace.h"

#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/results/recorded_level.h"

namespace lbb {

namespace {

std::string recorded_text(const RunInfo& run, const char* key) {
  const auto it = run.text.find(key);
  return it == run.text.end() ? std::string() : it->second;
}

std::unique_ptr<Workload> workload_of(const RunInfo& run) {
  const Config config = load_config_text(recorded_text(run, "config_yaml"), run.id);
  if (config.runs.size() != 1) throw TraceError("run " + run.id + ": its config is not one run");
  const RunSpec& spec = config.runs.front();
  const WorkloadInfo* info = find_workload_kind(spec.workload);
  if (!info || !info->make)
    throw TraceError("run " + run.id + ": " + spec.workload + " has no persistent modules");
  return info->make(spec.workload_params);
}

}  // namespace

Trace trace_of_run(const ResultReader& set, const RunInfo& run) {
  const std::unique_ptr<Workload> workload = workload_of(run);
  const int phases = workload->phases();
  const std::string prefix = phases > 1 ? "module/phase_" : "module/";
  std::size_t rows = 0, cols = 0, orows = 0, ocols = 0, brows = 0, bcols = 0;
  const std::vector<double> cost = set.read_matrix(run.id, prefix + "cost", rows, cols);
  const std::vector<double> owner = set.read_matrix(run.id, prefix + "owner", orows, ocols);
  const std::vector<double> busy = set.read_matrix(run.id, "proc/busy", brows, bcols);
  const int modules = workload->module_count();
  if (rows == 0 || orows != rows || ocols != cols || cols != std::size_t(phases) * modules)
    throw TraceError("run " + run.id +
                     ": no module rows (run it with execution.record: modules) of " +
                     std::to_string(modules) + " modules");
  Trace t;
  t.steps = static_cast<int>(rows) * phases;  // row s holds its phases one after the other
  t.modules = modules;
  t.phases_per_step = phases;
  t.ranks = static_cast<int>(bcols);
  t.cost = cost;
  t.owner.reserve(owner.size());
  for (double q : owner) {
    if (!(q >= 0 && q < t.ranks)) throw TraceError("run " + run.id + ": an owner out of range");
    t.owner.push_back(static_cast<int>(q));
  }
  if (phases == 1 && brows == rows) t.busy = busy;
  for (int m = 0; m < modules; ++m) {
    t.task_id.push_back(m);
    t.bytes.push_back(static_cast<double>(workload->state_bytes(m)));
  }
  t.structure = workload->structure();
  t.coords = workload->module_coords();
  t.dimensions = workload->dimensions();
  if (t.dimensions <= 0 || t.coords.size() != std::size_t(modules) * t.dimensions) {
    t.dimensions = 0;
    t.coords.clear();
  }
  t.neighbours.resize(modules);
  if (const std::optional<ModuleGraph> graph = workload->communication())
    for (int m = 0; m < modules; ++m)
      t.neighbours[m].assign(graph->neighbours(m).begin(), graph->neighbours(m).end());
  return t;
}

std::vector<const RunInfo*> runs_with_modules(const ResultReader& set, const std::string& only) {
  std::vector<const RunInfo*> runs;
  for (const RunInfo& run : set.runs()) {
    if (!only.empty() && run.id != only) continue;
    const auto modules = run.number.find("modules");
    if (only.empty() &&
        (recorded_text(run, "status") != "complete" || modules == run.number.end() ||
         recorded_level(run.record) != RecordLevel::kModules))
      continue;
    runs.push_back(&run);
  }
  if (runs.empty())
    throw TraceError(only.empty() ? "no complete run recorded with execution.record: modules in "
                                    "the set"
                                  : "no run " + only + " in the set");
  return runs;
}

}  // namespace lbb
