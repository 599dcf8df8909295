#include "harness/runner.h"

#include <memory>

#include "harness/executor.h"
#include "harness/module_store.h"
#include "harness/self_scheduled_executor.h"

namespace lbb {

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
  w.set_int("modules", modules);
  w.set_int("steps", spec.steps);
  w.set_int("warmup", spec.warmup);
  w.set_int("repetition", repetition);
  w.set_text("status", "partial");
  w.set_int("verified", 0);
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
  w.flush();
}

void write_run_summary(RunWriter& w, const RunSummary& s, const ExecutionResult& x) {
  w.set_real("makespan_total", s.makespan);
  w.set_real("wall_total", s.wall);
  w.set_real("ideal_total", s.ideal);
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
  w.set_int("verified", v.passed ? 1 : 0);
  w.set_text("verification", v.detail);
  w.set_real("verification_error", v.error);
  w.set_real("verification_tolerance", v.tolerance);
  w.set_real("checksum", v.checksum);
  w.set_real("reference_checksum", v.reference_checksum);
  for (const auto& a : out.attributes) w.set_real(a.name, a.value);
  w.set_text("finished", iso_time_now());
  w.set_real("load_end", load_average());
  w.set_text("status", v.passed ? "complete" : "failed");
  w.flush();
}

void write_run_failure(RunWriter& w, const std::string& error) noexcept {
  try {
    w.set_text("status", "failed");
    w.set_text("error", error);
    w.set_text("finished", iso_time_now());
    w.set_real("load_end", load_average());
    w.flush();
  } catch (const std::exception&) {
  }
}

RunOutcome execute_run(const RunSpec& spec, int repetition, ArchiveWriter* archive,
                       const Provenance& provenance) {
  if (const WorkloadInfo* info = find_workload(spec.workload); info && info->make_levels)
    return execute_level_run(spec, *info, repetition, archive, provenance);
  RunOutcome out;
  out.spec = &spec;
  out.repetition = repetition;
  out.oversubscribed = spec.processors > provenance.available;
  std::unique_ptr<RunWriter> writer;
  try {
    const WorkloadInfo* info = find_workload(spec.workload);
    if (!info) throw std::invalid_argument("unknown workload " + spec.workload);
    std::unique_ptr<Workload> workload = info->make(spec.workload_params);
    std::unique_ptr<Balancer> initial, dynamic;
    std::vector<std::unique_ptr<Balancer>> later_phases;  // each phase balanced on its own
    if (!spec.balancer.static_name.empty())
      initial = make_balancer(spec.balancer.static_name, spec.balancer.static_params);
    if (!spec.balancer.dynamic_name.empty()) {
      dynamic = make_balancer(spec.balancer.dynamic_name, spec.balancer.dynamic_params);
      for (int ph = 1; ph < workload->phases(); ++ph)
        later_phases.push_back(
            make_balancer(spec.balancer.dynamic_name, spec.balancer.dynamic_params));
    }
    const Topology topology(spec.topology, spec.processors);

    ExecutionPlan plan;
    plan.processors = spec.processors;
    plan.warmup = spec.warmup;
    plan.steps = spec.steps;
    plan.topology = &topology;
    plan.speed = spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds;
    plan.external_load = spec.external_load;
    plan.initial = initial.get();
    plan.dynamic = dynamic.get();
    for (const auto& b : later_phases) plan.later_phase_dynamic.push_back(b.get());
    plan.record_modules = spec.module_detail;

    // Balancers run under the bulk-synchronous executor; an in-step schedule under its own.
    const ScheduleChoice schedule =
        schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params);
    std::unique_ptr<Executor> executor;
    SelfScheduledExecutor* self_scheduled = nullptr;
    if (schedule.kind == InStepSchedule::kAssigned) {
      executor = std::make_unique<BspExecutor>();
    } else {
      auto e = std::make_unique<SelfScheduledExecutor>(schedule.kind, schedule.chunk);
      self_scheduled = e.get();
      executor = std::move(e);
    }

    std::vector<std::string> metrics;
    for (const auto& m : workload->step_metrics()) metrics.push_back(m.name);
    if (self_scheduled)
      for (const auto& m : self_scheduled_metrics()) metrics.push_back(m.name);
    if (archive) {
      RunLayout layout{
          spec.balancer.label + (spec.sweep_label.empty() ? "" : "-" + spec.sweep_label),
          spec.processors, workload->module_count(), spec.module_detail, metrics};
      writer = archive->begin_run(layout);
      out.run_id = writer->id();
      write_run_header(*writer, spec, repetition, workload->module_count(), provenance,
                       out.oversubscribed,
                       self_scheduled ? spec.balancer.schedule_name : std::string("bsp"));
    }
    SummarySink sink(writer.get());
    ModuleStore store(*workload);
    ExecutionResult x = executor->run(*workload, store, plan, sink);
    out.summary = sink.summary();
    out.run_wall = x.run_wall;
    out.verification = workload->verify(store, x.steps_run);
    out.attributes = workload->attributes();
    if (self_scheduled)
      out.attributes.push_back({"remote_runs", static_cast<double>(self_scheduled->remote_runs())});
    if (writer) {
      write_run_summary(*writer, out.summary, x);
      write_run_outcome(*writer, out);
    }
  } catch (const std::exception& e) {
    out.error = e.what();
    if (writer) write_run_failure(*writer, out.error);
  }
  return out;
}

}  // namespace lbb
