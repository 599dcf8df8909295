#include "harness/run/runner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/text.h"
#include "harness/base/clock.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "harness/run/file_digest.h"
#include "harness/run/modelled_replay.h"

namespace lbb {

namespace {

// Each processor's value, comma-separated; `missing` where the list is shorter than P.
std::string per_processor_text(const std::vector<double>& values, int processors, double missing) {
  std::string text;
  for (int p = 0; p < processors; ++p) {
    if (p > 0) text += ',';
    text += format_number(p < static_cast<int>(values.size()) ? values[p] : missing, 17);
  }
  return text;
}

// The tables the run writes: its execution.record, less the modules table where the workload has
// no persistent modules (a level workload's tasks change every level).
RecordLevel written_level(const RunSpec& spec, const Execution& execution) {
  return spec.record == RecordLevel::kModules && execution.modules() <= 0 ? RecordLevel::kProcs
                                                                          : spec.record;
}

// A run's header: what is known of it before its first step.
RunRecord run_header(const RunSpec& spec, int repetition, const Execution& execution,
                     const Provenance& prov, bool oversubscribed, bool simulated) {
  RunRecord r;
  r.name = spec.name;
  r.workload = spec.workload;
  r.balancer = spec.balancer.label;
  // A schedule's modules stay where an OpenMP static loop placed them: no static partitioner.
  const bool scheduled = !spec.balancer.schedule_name.empty();
  r.static_name = !execution.partitions_statically()   ? ""
                  : !spec.balancer.static_name.empty() ? spec.balancer.static_name
                  : scheduled                          ? ""
                                                       : "block";
  r.dynamic = spec.balancer.dynamic_name;
  // A user's balancer, between steps or else the initial partition's (docs/your-balancer.md).
  const bool dynamic_user = r.dynamic == "plugin" || r.dynamic == "python";
  const std::string& user = dynamic_user ? r.dynamic : r.static_name;
  if (user == "plugin" || user == "python") {
    const Params& p = dynamic_user ? spec.balancer.dynamic_params : spec.balancer.static_params;
    r.plugin_library = p.text(user == "plugin" ? "library" : "script");
    r.plugin_sha256 = file_sha256(r.plugin_library);
  }
  r.schedule = spec.balancer.schedule_name;
  if (const BalancerInfo* info = find_balancer(r.dynamic, BalancerKind::kDynamic);
      info && info->role == BalancerRole::kBetweenSteps) {
    const LoadModelSpec& model = spec.balancer.load_model;
    r.balance_every = spec.balancer.balance_every;
    r.load_model = std::string(load_model_name(model.kind));
    r.load_model_window = model.kind == LoadModelKind::kLast ? 1 : model.window;
  }
  r.sweep = spec.sweep_label;
  r.mode = spec.mode;
  r.executor = execution.name();
  r.topology = std::string(topology_name(spec.topology));
  r.processors = spec.processors;
  r.speeds = per_processor_text(spec.speeds, spec.processors, 1.0);
  r.external_load_max = per_processor_text(spec.external_load.max, spec.processors, 0.0);
  r.modules = execution.modules();
  r.steps = spec.steps;
  r.warmup = spec.warmup;
  r.repetition = repetition;
  r.verified = 0;
  r.simulated = simulated ? 1 : 0;  // nothing to verify when 1
  r.interrupted = 0;                // 1 only when an interrupt ends the run (run_command.cpp)
  r.config_yaml = spec.resolved_yaml;
  r.record = std::string(record_level_name(written_level(spec, execution)));
  r.git_sha = prov.git_sha;
  r.compiler = prov.compiler;
  r.flags = prov.flags;
  r.host = prov.host;
  r.cpu_model = prov.cpu_model;
  r.omp_env = prov.omp_env;
  r.hdf5_version = prov.hdf5_version;
  r.openblas = prov.openblas;
  r.cores = prov.cores;
  r.hardware_threads = prov.hardware_threads;
  r.available_processors = prov.available;
  r.oversubscribed = oversubscribed ? 1 : 0;
  r.started = iso_time_now();
  r.invocation = prov.invocation;
  r.run_uuid = random_hex(16);
  r.load_start = load_average();
  return r;
}

// The whole-run figures, the verification and the status of a run that ended.
void add_run_outcome(RunRecord& r, const RunOutcome& out, const ExecutionResult& x) {
  const RunSummary& s = out.summary;
  r.makespan_total = s.makespan;
  r.wall_total = s.wall;
  r.ideal_total = s.ideal;
  r.largest_module_total = s.largest_module;
  r.replayed_makespan_total = s.replayed_makespan;
  r.efficiency = s.efficiency();
  r.imbalance = s.imbalance;
  r.balance_total = s.balance;
  r.migrations_total = s.migrations;
  r.bytes_moved_total = s.bytes_moved;
  r.initial_partition_seconds = x.initial_partition_seconds;
  r.results_seconds = x.record_seconds;
  r.run_wall = x.run_wall;
  if (x.levels >= 0) r.steps = x.levels;
  r.tasks_total = x.tasks_total;
  r.max_distance = x.max_distance;
  r.ranks = x.ranks;
  const Verification& v = out.verification;
  r.verified = v.passed && !v.simulated ? 1 : 0;
  r.verification = v.detail;
  r.verification_error = v.error;
  r.verification_tolerance = v.tolerance;
  r.checksum = v.checksum;
  r.reference_checksum = v.reference_checksum;
  r.finished = iso_time_now();
  r.load_end = load_average();
  r.status = v.passed ? "complete" : "failed";
}

void add_run_failure(RunRecord& r, const std::string& error) {
  r.status = "failed";
  r.error = error;
  r.finished = iso_time_now();
  r.load_end = load_average();
}

// What the executor measured of its steps' work (run_costs.h); an executor that measures none
// (the asynchronous one) counts its recorded steps' busy time.
void add_step_work(RunCosts& costs, const ExecutionResult& x, const RunOutcome& out) {
  if (out.verification.simulated) {
    costs.simulated = std::max(0.0, costs.run - costs.record - x.record_build_seconds);
    return;
  }
  costs.modules = x.work.modules > 0 ? x.work.modules : out.summary.busy;
  costs.serial = x.work.serial;
  costs.balancing = x.work.balancing;
  costs.placement = x.placement;
}

std::vector<EntryRunner>& entry_runners() {
  static std::vector<EntryRunner> runners;
  return runners;
}

const EntryRunner* entry_runner(const RunSpec& spec) {
  for (const EntryRunner& r : entry_runners())
    if (r.claims(spec)) return &r;
  return nullptr;
}

}  // namespace

void register_entry_runner(EntryRunner runner) {
  entry_runners().push_back(std::move(runner));
}

bool runs_oversubscribed(const RunSpec& spec, const Provenance& provenance) {
  return spec.processors > provenance.available && !runs_simulated(spec);
}

void expect_references(ReferenceCache& references, const RunSpec& spec) {
  references.expect(spec);
  if (const EntryRunner* r = entry_runner(spec))
    for (const RunSpec& extra : r->extra_references(spec)) references.expect(extra);
}

RunOutcome execute_run(const RunSpec& spec, int repetition, ResultWriter* results,
                       const Provenance& provenance, ReferenceCache* references,
                       const std::vector<WorkloadAttribute>& figures) {
  if (const EntryRunner* r = entry_runner(spec))
    return r->run(spec, repetition, results, provenance, references);
  RunOutcome out;
  out.spec = &spec;
  out.repetition = repetition;
  std::unique_ptr<RunWriter> writer;
  RunCosts& costs = out.costs;
  CpuLap lap;  // what each part just done cost
  try {
    const WorkloadInfo* info = find_workload_kind(spec.workload);
    if (!info) throw std::invalid_argument("unknown workload " + spec.workload);
    const ExecutorInfo& executor = executor_of(spec);
    // A replayed run records its module costs for the replay, written to results or not.
    const bool replayed = gets_modelled_replay(spec, executor.name);
    std::optional<RunSpec> detailed;
    if (replayed && spec.record != RecordLevel::kModules)
      detailed = spec, detailed->record = RecordLevel::kModules;
    const std::unique_ptr<Execution> execution = executor.make(detailed ? *detailed : spec, *info);
    const bool oversubscribed = runs_oversubscribed(spec, provenance);
    lap(costs.setup);
    out.record =
        run_header(spec, repetition, *execution, provenance, oversubscribed, executor.simulates);
    if (results) {
      // A level workload's module count changes every level: no per-module datasets.
      RunLayout layout{
          execution->metric_names(),       spec.processors,     std::max(execution->modules(), 1),
          written_level(spec, *execution), execution->phases(), spec.timeline};
      writer = results->begin_run(layout);
      out.run_id = writer->id();
      writer->write_header(out.record);
    }
    lap(costs.results);
    SummarySink sink(writer.get(), spec.speeds);
    std::optional<ReplayCapture> capture;
    if (replayed) capture.emplace(sink, spec, execution->modules(), execution->phases());
    const ExecutionResult x = execution->run(capture ? static_cast<StepSink&>(*capture) : sink);
    lap(costs.run);
    if (writer) writer->add_spans(x.spans);
    out.summary = sink.summary();
    if (capture) {
      out.summary.replayed_makespan = replay_in_model(spec, *info, *capture).makespan;
      lap(costs.replay);
    }
    costs.record = x.record_seconds;
    const int steps = execution->reference_steps(x);
    const auto compute = [&] { return execution->reference(steps); };
    const std::shared_ptr<const SerialReference> reference =
        references ? references->take(spec, steps, compute) : compute();
    lap(costs.reference);
    out.verification = execution->verify(x, *reference);
    for (const auto& list : {execution->attributes(), figures})
      for (const WorkloadAttribute& a : list) out.record.figures.push_back({a.name, a.value});
    lap(costs.verify);
    add_step_work(costs, x, out);
    add_run_outcome(out.record, out, x);
    if (writer) writer->end(out.record);
    lap(costs.results);
  } catch (const std::exception& e) {
    out.error = e.what();
    add_run_failure(out.record, out.error);
    try {
      if (writer) writer->end(out.record);
    } catch (const std::exception&) {
      // The run's own error wins.
    }
  }
  // Handing the run to the result writer may write a part: results CPU, not "rest".
  writer.reset();
  lap(costs.results);
  return out;
}

}  // namespace lbb
