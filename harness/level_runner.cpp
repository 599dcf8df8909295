// Runs one RunSpec of a level workload end to end: workload -> levels on threads (each balanced
// by the dynamic balancer, or self-scheduled) -> verification -> archive.
#include <memory>

#include "harness/executor.h"
#include "harness/level_executor.h"
#include "harness/runner.h"

namespace lbb {

RunOutcome execute_level_run(const RunSpec& spec, const WorkloadInfo& info, int repetition,
                             ArchiveWriter* archive, const Provenance& provenance) {
  RunOutcome out;
  out.spec = &spec;
  out.repetition = repetition;
  out.oversubscribed = spec.processors > provenance.available;
  std::unique_ptr<RunWriter> writer;
  try {
    if (!spec.balancer.static_name.empty())
      throw std::invalid_argument(info.name +
                                  " has no static partition: its tasks are born "
                                  "level by level");
    std::unique_ptr<LevelWorkload> workload = info.make_levels(spec.workload_params);
    std::unique_ptr<Balancer> balancer;
    if (!spec.balancer.dynamic_name.empty())
      balancer = make_balancer(spec.balancer.dynamic_name, spec.balancer.dynamic_params);
    const Topology topology(spec.topology, spec.processors);

    LevelPlan plan;
    plan.processors = spec.processors;
    plan.topology = &topology;
    plan.speed = spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds;
    plan.external_load = spec.external_load;
    plan.balancer = balancer.get();
    const ScheduleChoice schedule =
        schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params);
    plan.schedule = schedule.kind;
    plan.chunk = schedule.chunk;

    std::vector<std::string> metrics;
    for (const auto& m : workload->level_metrics()) metrics.push_back(m.name);
    for (const auto& m : level_executor_metrics()) metrics.push_back(m.name);
    if (archive) {
      // Module counts change every level: no per-module datasets.
      RunLayout layout{
          spec.balancer.label + (spec.sweep_label.empty() ? "" : "-" + spec.sweep_label),
          spec.processors, 1, false, metrics};
      writer = archive->begin_run(layout);
      out.run_id = writer->id();
      write_run_header(*writer, spec, repetition, 0, provenance, out.oversubscribed, "level");
      writer->set_text("static", "");  // tasks start on their parent's processor
    }
    SummarySink sink(writer.get());
    LevelExecutor executor;
    const LevelResult x = executor.run(*workload, plan, sink);
    out.summary = sink.summary();
    out.run_wall = x.run_wall;
    out.verification = workload->verify();
    out.attributes = workload->attributes();
    // The paper's model figures over all levels (in the workload's cost units).
    out.attributes.push_back({"levels", static_cast<double>(x.levels)});
    out.attributes.push_back({"LB_model", x.lb_model});
    out.attributes.push_back({"T_model", x.t_model});
    out.attributes.push_back({"comm_model", x.comm_model});
    if (writer) {
      ExecutionResult summary;
      summary.record_seconds = x.record_seconds;
      summary.run_wall = x.run_wall;
      write_run_summary(*writer, out.summary, summary);
      writer->set_int("steps", x.levels);
      writer->set_int("tasks_total", x.tasks);
      writer->set_int("max_distance", x.max_distance);
      write_run_outcome(*writer, out);
    }
  } catch (const std::exception& e) {
    out.error = e.what();
    if (writer) write_run_failure(*writer, out.error);
  }
  return out;
}

}  // namespace lbb
