#include "harness/sim/tree_execution.h"

#include <stdexcept>

#include "harness/exec/level_executor.h"
#include "harness/sim/tree_simulation.h"

namespace lbb {

namespace {

class TreeExecution final : public Execution {
 public:
  TreeExecution(const RunSpec& spec, const TreeParams& tree)
      : tree_(tree),
        topology_(spec.topology, spec.processors),
        speed_(spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds),
        balancer_(
            make_balancer(spec.balancer.dynamic_name.empty() ? "none" : spec.balancer.dynamic_name,
                          spec.balancer.dynamic_params)),
        generations_(spec.steps) {}

  std::string name() const override { return "simulate"; }
  int modules() const override { return 0; }  // a generation's task count changes
  std::vector<std::string> metric_names() const override {
    std::vector<std::string> names;
    for (const auto& m : level_executor_metrics()) names.push_back(m.name);
    return names;
  }
  ExecutionResult run(StepSink& sink) override {
    sim_ = simulate_tree(tree_, *balancer_, topology_, speed_, generations_, &sink);
    ExecutionResult x;
    x.steps_run = sim_.generations;
    x.migrations = static_cast<std::int64_t>(sim_.moved);
    x.record_seconds = sim_.record_seconds;
    x.record_build_seconds = sim_.record_build_seconds;
    x.levels = sim_.generations;
    x.tasks_total = static_cast<std::int64_t>(sim_.tasks);
    x.max_distance = sim_.max_distance;
    return x;
  }
  int reference_steps(const ExecutionResult&) const override { return 0; }
  std::shared_ptr<const SerialReference> reference(int steps) const override {
    return std::make_shared<const SerialReference>(steps);  // no kernel: nothing to compute
  }
  Verification verify(const ExecutionResult&, const SerialReference&) override {
    return Verification::of_simulation();
  }
  std::vector<WorkloadAttribute> attributes() const override {
    const double n = sim_.generations > 0 ? sim_.generations : 1;
    return {{"c_cost", tree_.c_cost},
            {"min", tree_.min},
            {"max", tree_.max},
            {"levels", static_cast<double>(sim_.generations)},
            {"LB_model", sim_.lb_total},
            {"T_model", sim_.t_total},
            {"comm_model", sim_.comm_total},
            {"LB_mean", sim_.lb_total / n},
            {"T_mean", sim_.t_total / n},
            {"T_over_LB", sim_.lb_total > 0 ? sim_.t_total / sim_.lb_total : 0.0},
            {"restarts", static_cast<double>(sim_.restarts)},
            {"children_per_task", sim_.parents > 0 ? sim_.children / sim_.parents : 0.0}};
  }
  bool partitions_statically() const override { return false; }

 private:
  TreeParams tree_;
  const Topology topology_;
  std::vector<double> speed_;
  std::unique_ptr<Balancer> balancer_;
  int generations_;
  TreeSimulation sim_;
};

}  // namespace

std::unique_ptr<Execution> tree_execution(const RunSpec& spec, const WorkloadInfo& workload) {
  if (!spec.balancer.static_name.empty())
    throw std::invalid_argument(workload.name +
                                " has no static partition: its tasks are born generation by "
                                "generation (use dynamic:)");
  if (!spec.balancer.schedule_name.empty())
    throw std::invalid_argument(workload.name + " is balanced by level balancers, not schedules");
  if (spec.external_load.any())
    throw std::invalid_argument(workload.name + ": external load is not simulated on task trees");
  return std::make_unique<TreeExecution>(spec, tree_params(spec.workload_params, spec.processors));
}

}  // namespace lbb
