// A level workload run by the level executor: its balancer or in-step schedule from a RunSpec,
// and Hwang & Hong's model figures over all levels as run attributes.
#include <memory>
#include <stdexcept>

#include "harness/exec/execution.h"
#include "harness/exec/level_executor.h"

namespace lbb {

namespace {

class LevelExecution final : public Execution {
 public:
  LevelExecution(const RunSpec& spec, const WorkloadInfo& info)
      : workload_(info.make_levels(spec.workload_params)),
        topology_(spec.topology, spec.processors) {
    if (!spec.balancer.dynamic_name.empty())
      balancer_ = make_balancer(spec.balancer.dynamic_name, spec.balancer.dynamic_params);
    plan_.processors = spec.processors;
    plan_.topology = &topology_;
    plan_.speed = spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds;
    plan_.external_load = spec.external_load;
    plan_.balancer = balancer_.get();
    const ScheduleChoice schedule =
        schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params);
    if (schedule.kind == InStepSchedule::kChunked)
      throw std::invalid_argument("schedule " + spec.balancer.schedule_name +
                                  " self-schedules module workloads; level workloads take the "
                                  "omp_* schedules");
    plan_.schedule = schedule.kind;
    plan_.chunk = schedule.chunk;
  }

  std::string name() const override { return "level"; }
  int modules() const override { return 0; }
  std::vector<std::string> metric_names() const override {
    std::vector<std::string> names;
    for (const auto& m : workload_->level_metrics()) names.push_back(m.name);
    for (const auto& m : level_executor_metrics()) names.push_back(m.name);
    return names;
  }
  ExecutionResult run(StepSink& sink) override {
    levels_ = LevelExecutor().run(*workload_, plan_, sink);
    ExecutionResult x;
    x.steps_run = levels_.levels;
    x.record_seconds = levels_.record_seconds;
    x.work = levels_.work;
    x.run_wall = levels_.run_wall;
    x.migrations = levels_.migrations;
    x.bytes_moved = levels_.bytes_moved;
    x.levels = levels_.levels;
    x.tasks_total = levels_.tasks;
    x.max_distance = levels_.max_distance;
    return x;
  }
  int reference_steps(const ExecutionResult&) const override { return 0; }  // the whole tree
  std::shared_ptr<const SerialReference> reference(int) const override {
    return workload_->reference();
  }
  Verification verify(const ExecutionResult&, const SerialReference& reference) override {
    return workload_->verify_against(reference);
  }
  std::vector<WorkloadAttribute> attributes() const override {
    std::vector<WorkloadAttribute> all = workload_->attributes();
    // The paper's model figures over all levels (in the workload's cost units).
    all.push_back({"levels", static_cast<double>(levels_.levels)});
    all.push_back({"LB_model", levels_.lb_model});
    all.push_back({"T_model", levels_.t_model});
    all.push_back({"comm_model", levels_.comm_model});
    return all;
  }
  bool partitions_statically() const override { return false; }

 private:
  std::unique_ptr<LevelWorkload> workload_;
  const Topology topology_;
  std::unique_ptr<Balancer> balancer_;
  LevelPlan plan_;
  LevelResult levels_;
};

}  // namespace

std::unique_ptr<Execution> level_execution(const RunSpec& spec, const WorkloadInfo& info) {
  if (!info.make_levels)
    throw std::invalid_argument(info.name + " has no tasks born level by level");
  if (!spec.balancer.static_name.empty())
    throw std::invalid_argument(info.name +
                                " has no static partition: its tasks are born level by level");
  return std::make_unique<LevelExecution>(spec, info);
}

}  // namespace lbb
