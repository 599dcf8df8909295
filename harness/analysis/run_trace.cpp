#include "harness/analysis/run_trace.h"

#include <algorithm>

#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/results/recorded_level.h"
#include "harness/run/executor_registry.h"

namespace lbb {

namespace {

RunSpec spec_of(const RunRecord& run) {
  const Config config = load_config_text(run.config_yaml, run.run);
  if (config.runs.size() != 1) throw TraceError("run " + run.run + ": its config is not one run");
  return config.runs.front();
}

std::unique_ptr<Workload> workload_of(const RunRecord& run, const RunSpec& spec) {
  const WorkloadInfo* info = find_workload_kind(spec.workload);
  if (!info || !info->make)
    throw TraceError("run " + run.run + ": " + spec.workload + " has no persistent modules");
  return info->make(spec.workload_params);
}

// Each step's phase f: every edge n -> m of the exchange graph that carries bytes, with those m
// reads of n (the workload counts its steps from the first warm-up step); then what the run
// recorded crossing between module states (Barnes-Hut's bodies, in the transfers table), in the
// phase whose end moved it.
void add_messages(const ResultReader& set, const RunRecord& run, const Workload& workload,
                  int warmup, Trace& t) {
  const std::optional<ModuleGraph> graph = workload.exchange_graph();
  for (int s = 0; graph && s < t.steps; ++s)
    for (int m = 0; m < t.modules; ++m)
      for (int n : graph->neighbours(m)) {
        const int step = warmup + s / t.phases_per_step, phase = s % t.phases_per_step;
        if (const double b = workload.exchanged_bytes(n, m, step, phase); b > 0)
          t.messages.push_back({s, n, m, 1, b});
      }
  const ColumnTable moved = set.run_rows(run.run, TableId::kTransfers);
  if (moved.rows() == 0) return;
  const Column *step = moved.find("step"), *phase = moved.find("phase"), *from = moved.find("from"),
               *to = moved.find("to"), *bytes = moved.find("bytes");
  if (!step || !phase || !from || !to || !bytes)
    throw TraceError("run " + run.run + ": a transfers column is missing");
  for (std::size_t r = 0; r < moved.rows(); ++r) {
    const double k = step->number(r) * t.phases_per_step + phase->number(r);
    const double a = from->number(r), b = to->number(r);
    if (!(k >= 0 && k < t.steps && a >= 0 && a < t.modules && b >= 0 && b < t.modules))
      throw TraceError("run " + run.run + ": a transfer out of range");
    t.messages.push_back({int(k), int(a), int(b), 1, bytes->number(r)});
  }
  std::stable_sort(t.messages.begin(), t.messages.end(),
                   [](const TraceMessage& x, const TraceMessage& y) { return x.step < y.step; });
}

// A modules column as [trace step * modules + m], or empty where the run's parts lack it or
// hold -1 in it (not recorded).
std::vector<double> module_column(const ResultReader& set, const RunRecord& run,
                                  const std::string& name, std::size_t cells) {
  std::size_t rows = 0, cols = 0;
  std::vector<double> v;
  try {
    v = set.read_matrix(run.run, name, rows, cols);
  } catch (const ResultError&) {
    return {};  // a part written before the column existed
  }
  if (v.size() != cells || std::any_of(v.begin(), v.end(), [](double x) { return !(x >= 0); }))
    return {};
  return v;
}

// Each cell's owner's external load level in its step (procs.external_load, [step, proc]); empty
// where the run had none, so a run without load exports as before.
std::vector<double> owner_loads(const ResultReader& set, const RunRecord& run, const Trace& t) {
  std::size_t rows = 0, cols = 0;
  std::vector<double> level;
  try {
    level = set.read_matrix(run.run, "proc/external_load", rows, cols);
  } catch (const ResultError&) {
    return {};  // a part written before the column existed
  }
  if (rows * t.phases_per_step != std::size_t(t.steps) || cols != std::size_t(t.ranks) ||
      std::none_of(level.begin(), level.end(), [](double x) { return x > 0; }))
    return {};
  std::vector<double> load(t.cost.size(), 0.0);
  for (std::size_t cell = 0; cell < load.size(); ++cell) {
    const std::size_t step = cell / t.modules / t.phases_per_step;
    load[cell] = trace_load(level[step * cols + t.owner[cell]], "run " + run.run);
  }
  return load;
}

// A run of an imported trace: what the files said and lbbench does not use (task ids, entities,
// messages, subphases, shared nodes) comes back as they said it, from trace step `first` (the
// warm-up's steps skipped); subphases scaled to the task's time in this run.
void keep_imported(const Trace& in, int first, Trace& t) {
  t.task_id = in.task_id;
  t.entity = in.entity;
  t.shared_node = in.shared_node;
  const int offset = first * t.phases_per_step;
  for (const TraceMessage& c : in.messages)
    if (c.step >= offset && c.step - offset < t.steps)
      t.messages.push_back({c.step - offset, c.from, c.to, c.messages, c.bytes});
  for (const auto& [cell, list] : in.subphases) {
    const std::size_t at = cell - static_cast<std::size_t>(offset) * t.modules;
    if (cell < static_cast<std::size_t>(offset) * t.modules || at >= t.cost.size()) continue;
    const double recorded = in.cost[cell], now = t.cost[at];
    std::vector<TraceSubphase>& out = t.subphases[at] = list;
    if (recorded > 0 && now != recorded)
      for (TraceSubphase& p : out) p.time *= now / recorded;
  }
}

}  // namespace

Trace trace_of_run(const ResultReader& set, const RunRecord& run, std::string* warning) {
  const RunSpec spec = spec_of(run);
  const std::unique_ptr<Workload> workload = workload_of(run, spec);
  const int phases = workload->phases();
  const std::string prefix = phases > 1 ? "module/phase_" : "module/";
  std::size_t rows = 0, cols = 0, orows = 0, ocols = 0, brows = 0, bcols = 0;
  const std::vector<double> cost = set.read_matrix(run.run, prefix + "cost", rows, cols);
  const std::vector<double> owner = set.read_matrix(run.run, prefix + "owner", orows, ocols);
  const std::vector<double> busy = set.read_matrix(run.run, "proc/busy", brows, bcols);
  const int modules = workload->module_count();
  if (rows == 0 || orows != rows || ocols != cols || cols != std::size_t(phases) * modules)
    throw TraceError("run " + run.run +
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
    if (!(q >= 0 && q < t.ranks)) throw TraceError("run " + run.run + ": an owner out of range");
    t.owner.push_back(static_cast<int>(q));
  }
  if (phases == 1 && brows == rows) t.busy = busy;
  t.step_bytes = module_column(set, run, prefix + "state_bytes", t.owner.size());
  const std::vector<double> start = module_column(set, run, prefix + "start_owner", t.owner.size());
  if (start != owner) t.start_owner.assign(start.begin(), start.end());
  for (int q : t.start_owner)
    if (q >= t.ranks) throw TraceError("run " + run.run + ": a start owner out of range");
  // Each state's size when the first recorded step began (after a warm-up, at its end), where
  // recorded; else the workload's first sizes.
  const std::vector<double> began = module_column(set, run, prefix + "start_bytes", owner.size());
  for (int m = 0; m < modules; ++m) {
    t.task_id.push_back(m);
    t.bytes.push_back(began.empty() ? static_cast<double>(workload->state_bytes(m)) : began[m]);
  }
  t.structure = workload->structure();
  t.coords = workload->module_coords();
  t.dimensions = workload->dimensions();
  if (t.dimensions <= 0 || t.coords.size() != std::size_t(modules) * t.dimensions) {
    t.dimensions = 0;
    t.coords.clear();
  }
  t.neighbours.resize(modules);
  const std::optional<ModuleGraph> graph = workload->communication();
  if (graph)
    for (int m = 0; m < modules; ++m)
      t.neighbours[m].assign(graph->neighbours(m).begin(), graph->neighbours(m).end());
  // The times are those on each owner: the speeds say how fast it was (all 1: none written).
  if (std::any_of(spec.speeds.begin(), spec.speeds.end(), [](double v) { return v != 1; }))
    t.speeds = spec.speeds;
  t.load = owner_loads(set, run, t);  // and how loaded it was (the times include it)
  const ExecutorInfo* executor = find_executor(run.executor);
  if (warning && !t.load.empty() && executor && asynchronous_steps(*executor, spec))
    *warning =
        "its steps ran asynchronously, which record each processor's external load once "
        "for the whole run (procs.external_load, the same every step): each task's "
        "attributes.external_load is its rank's mean level, exact only where one level "
        "held for the whole run (platform.load_persist_s past the run's length)";
  if (const auto* imported = dynamic_cast<const TraceWorkload*>(workload.get())) {
    keep_imported(imported->trace(), spec.warmup, t);
  } else {
    t.entity.resize(modules);
    for (int m = 0; m < modules; ++m) {
      t.entity[m].collection_id = 0;  // one collection, the workload's modules
      t.entity[m].index = {m};
      t.entity[m].migratable = workload->migratable(m);
    }
    add_messages(set, run, *workload, spec.warmup, t);
  }
  return t;
}

std::vector<const RunRecord*> runs_with_modules(const ResultReader& set, const std::string& only) {
  std::vector<const RunRecord*> runs;
  for (const RunRecord& run : set.runs()) {
    if (!only.empty() && run.run != only) continue;
    if (only.empty() && (run.status != "complete" || run.modules == -1 ||
                         recorded_level(run) != RecordLevel::kModules))
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
