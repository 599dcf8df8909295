// A module workload run by any Executor: the workload, its balancers and the plan built from a
// RunSpec, the executor's metrics and attributes after the workload's.
#include <memory>
#include <string>

#include "harness/exec/execution.h"
#include "harness/exec/placement_quality.h"

namespace lbb {

namespace {

class ModuleExecution final : public Execution {
 public:
  ModuleExecution(const RunSpec& spec, const WorkloadInfo& info, std::unique_ptr<Executor> executor)
      : executor_(std::move(executor)),
        workload_(info.make(spec.workload_params)),
        topology_(spec.topology, spec.processors),
        store_(*workload_) {
    const BalancerChoice& b = spec.balancer;
    if (!b.static_name.empty())
      initial_ = std::make_unique<PlacementQuality>(
          make_balancer(b.static_name, BalancerKind::kStatic, b.static_params),
          workload_->communication());
    if (!b.dynamic_name.empty()) {
      dynamic_ = make_balancer(b.dynamic_name, b.dynamic_params);
      for (int ph = 1; ph < workload_->phases(); ++ph)  // each phase balanced on its own
        later_phases_.push_back(make_balancer(b.dynamic_name, b.dynamic_params));
    }
    plan_.processors = spec.processors;
    plan_.warmup = spec.warmup;
    plan_.steps = spec.steps;
    plan_.topology = &topology_;
    plan_.speed = spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds;
    plan_.external_load = spec.external_load;
    plan_.initial = initial_.get();
    plan_.dynamic = dynamic_.get();
    for (const auto& balancer : later_phases_) plan_.later_phase_dynamic.push_back(balancer.get());
    plan_.balance_every = b.balance_every;
    plan_.load_model = b.load_model;
    plan_.record_modules = spec.record == RecordLevel::kModules;
    plan_.timeline = spec.timeline;
  }

  std::string name() const override { return executor_->name(); }
  int modules() const override { return workload_->module_count(); }
  int phases() const override { return workload_->phases(); }
  std::vector<std::string> metric_names() const override {
    std::vector<std::string> names;
    for (const auto& m : workload_->step_metrics()) names.push_back(m.name);
    for (const auto& m : executor_->metrics()) names.push_back(m.name);
    return names;
  }
  ExecutionResult run(StepSink& sink) override {
    return executor_->run(*workload_, store_, plan_, sink);
  }
  // A simulation runs no kernel: nothing to compute a reference for, nothing to verify.
  std::shared_ptr<const SerialReference> reference(int steps) const override {
    if (!executor_->executes_kernels()) return std::make_shared<const SerialReference>(steps);
    return workload_->reference(steps);
  }
  Verification verify(const ExecutionResult& x, const SerialReference& reference) override {
    if (!executor_->executes_kernels()) return Verification::of_simulation();
    return workload_->verify_against(store_, x.steps_run, reference);
  }
  std::vector<WorkloadAttribute> attributes() const override {
    std::vector<WorkloadAttribute> all = workload_->attributes();
    for (const auto& a : executor_->attributes()) all.push_back(a);
    if (initial_)  // the static placement's quality (placement_quality.h)
      for (const auto& f : initial_->figures()) all.push_back({f.name, f.value});
    // The dynamic balancers' own (phase k > 0's named with a suffix _phase<k>).
    if (dynamic_)
      for (const auto& f : dynamic_->figures()) all.push_back({f.name, f.value});
    for (std::size_t k = 0; k < later_phases_.size(); ++k)
      for (const auto& f : later_phases_[k]->figures())
        all.push_back({f.name + "_phase" + std::to_string(k + 1), f.value});
    return all;
  }

 private:
  std::unique_ptr<Executor> executor_;
  std::unique_ptr<Workload> workload_;
  const Topology topology_;
  ModuleStore store_;
  std::unique_ptr<Balancer> initial_, dynamic_;
  std::vector<std::unique_ptr<Balancer>> later_phases_;
  ExecutionPlan plan_;
};

}  // namespace

ExecutionFactory module_execution(ModuleExecutorFactory make) {
  return [make](const RunSpec& spec, const WorkloadInfo& info) -> std::unique_ptr<Execution> {
    if (!info.make)
      throw std::invalid_argument(info.name + " has no modules that persist across steps");
    return std::make_unique<ModuleExecution>(spec, info, make(spec));
  };
}

}  // namespace lbb
