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

}  // namespace

void write_run_header(RunWriter& w, const RunSpec& spec, int repetition, int modules,
                      const Provenance& prov, bool oversubscribed, const std::string& executor) {
  w.set_text("name", spec.name);
  w.set_text("workload", spec.workload);
  w.set_text("balancer", spec.balancer.label);
  // A schedule's modules stay where an OpenMP static loop placed them: no static partitioner.
  const bool scheduled = !spec.balancer.schedule_name.empty();
  w.set_text("static", !spec.balancer.static_name.empty() ? spec.balancer.static_name
                       : scheduled                        ? ""
                                                          : "block");
  w.set_text("dynamic", spec.balancer.dynamic_name.empty() ? "" : spec.balancer.dynamic_name);
  w.set_text("schedule", spec.balancer.schedule_name);
  w.set_text("sweep", spec.sweep_label);
  w.set_text("mode", spec.mode);
  w.set_text("executor", executor);
  w.set_text("topology", std::string(topology_name(spec.topology)));
  w.set_int("processors", spec.processors);
  w.set_text("speeds", per_processor_text(spec.speeds, spec.processors, 1.0));
  w.set_text("external_load_max", per_processor_text(spec.external_load.max, spec.processors, 0.0));
  w.set_int("modules", modules);
  w.set_int("steps", spec.steps);
  w.set_int("warmup", spec.warmup);
  w.set_int("repetition", repetition);
  w.set_int("verified", 0);
  w.set_int("interrupted", 0);  // 1 only when an interrupt ends the run (run_command.cpp)
  w.set_text("config_yaml", spec.resolved_yaml);
  w.set_text("git_sha", prov.git_sha);
  w.set_text("compiler", prov.compiler);
  w.set_text("flags", prov.flags);
  w.set_text("host", prov.host);
  w.set_text("cpu_model", prov.cpu_model);
  w.set_text("omp_env", prov.omp_env);
  w.set_text("hdf5_version", prov.hdf5_version);
  w.set_text("openblas", prov.openblas);
  w.set_int("cores", prov.cores);
  w.set_int("hardware_threads", prov.hardware_threads);
  w.set_int("available_processors", prov.available);
  w.set_int("oversubscribed", oversubscribed ? 1 : 0);
  w.set_text("started", iso_time_now());
  w.set_text("invocation", prov.invocation);
  w.set_text("run_uuid", random_hex(16));
  w.set_real("load_start", load_average());
}

void write_run_summary(RunWriter& w, const RunSummary& s, const ExecutionResult& x) {
  w.set_real("makespan_total", s.makespan);
  w.set_real("wall_total", s.wall);
  w.set_real("ideal_total", s.ideal);
  w.set_real("largest_module_total", s.largest_module);
  if (!std::isnan(s.replayed_makespan)) w.set_real("replayed_makespan_total", s.replayed_makespan);
  w.set_real("efficiency", s.efficiency());
  w.set_real("imbalance", s.imbalance);
  w.set_real("balance_total", s.balance);
  w.set_int("migrations_total", s.migrations);
  w.set_int("bytes_moved_total", s.bytes_moved);
  w.set_real("initial_partition_seconds", x.initial_partition_seconds);
  w.set_real("archive_seconds", x.record_seconds);
  w.set_real("run_wall", x.run_wall);
}

void write_run_outcome(RunWriter& w, const RunOutcome& out) {
  const Verification& v = out.verification;
  w.set_int("verified", v.passed && !v.simulated ? 1 : 0);
  w.set_text("verification", v.detail);
  w.set_real("verification_error", v.error);
  w.set_real("verification_tolerance", v.tolerance);
  w.set_real("checksum", v.checksum);
  w.set_real("reference_checksum", v.reference_checksum);
  for (const auto& a : out.attributes) w.set_real(a.name, a.value);
  w.set_text("finished", iso_time_now());
  w.set_real("load_end", load_average());
  w.set_text("status", v.passed ? "complete" : "failed");
  w.end();
}

void write_run_failure(RunWriter& w, const std::string& error) noexcept {
  try {
    w.set_text("status", "failed");
    w.set_text("error", error);
    w.set_text("finished", iso_time_now());
    w.set_real("load_end", load_average());
    w.end();
  } catch (const std::exception&) {
  }
}

namespace {

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

RunOutcome execute_run(const RunSpec& spec, int repetition, ResultWriter* archive,
                       const Provenance& provenance, ReferenceCache* references,
                       const std::vector<WorkloadAttribute>& figures) {
  if (const EntryRunner* r = entry_runner(spec))
    return r->run(spec, repetition, archive, provenance, references);
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
    // A replayed run records its module costs for the replay, archived or not.
    const bool replayed = gets_modelled_replay(spec, executor.name);
    std::optional<RunSpec> detailed;
    if (replayed && !spec.module_detail) detailed = spec, detailed->module_detail = true;
    const std::unique_ptr<Execution> execution = executor.make(detailed ? *detailed : spec, *info);
    out.oversubscribed = runs_oversubscribed(spec, provenance);
    lap(costs.setup);
    if (archive) {
      // A level workload's module count changes every level: no per-module datasets.
      RunLayout layout{execution->metric_names(), spec.processors,
                       std::max(execution->modules(), 1),
                       spec.module_detail && execution->modules() > 0, execution->phases()};
      writer = archive->begin_run(layout);
      out.run_id = writer->id();
      write_run_header(*writer, spec, repetition, execution->modules(), provenance,
                       out.oversubscribed, execution->name());
      writer->set_int("simulated", executor.simulates ? 1 : 0);  // nothing to verify when 1
      execution->write_header(*writer);
      writer->mark_in_flight();
      lap(costs.archive);
    }
    SummarySink sink(writer.get(), spec.speeds);
    std::optional<ReplayCapture> capture;
    if (replayed) capture.emplace(sink, spec, execution->modules(), execution->phases());
    const ExecutionResult x = execution->run(capture ? static_cast<StepSink&>(*capture) : sink);
    lap(costs.run);
    out.summary = sink.summary();
    if (capture) {
      out.summary.replayed_makespan = replay_in_model(spec, *info, *capture).makespan;
      lap(costs.replay);
    }
    costs.record = x.record_seconds;
    out.run_wall = x.run_wall;
    const int steps = execution->reference_steps(x);
    const auto compute = [&] { return execution->reference(steps); };
    const std::shared_ptr<const SerialReference> reference =
        references ? references->take(spec, steps, compute) : compute();
    lap(costs.reference);
    out.verification = execution->verify(x, *reference);
    out.attributes = execution->attributes();
    out.attributes.insert(out.attributes.end(), figures.begin(), figures.end());
    lap(costs.verify);
    add_step_work(costs, x, out);
    if (writer) {
      write_run_summary(*writer, out.summary, x);
      execution->write_result(*writer);
      write_run_outcome(*writer, out);
      lap(costs.archive);
    }
  } catch (const std::exception& e) {
    out.error = e.what();
    if (writer) write_run_failure(*writer, out.error);
  }
  // Handing the run to the result writer may write a part: archive CPU, not "rest".
  writer.reset();
  lap(costs.archive);
  return out;
}

}  // namespace lbb
