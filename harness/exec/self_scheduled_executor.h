#pragma once
// The in-step scheduling baselines for module workloads: no owner per module between steps;
// in every phase of every step the threads take the modules as an OpenMP schedule hands them
// out, and the record says who ran what. Module states stay where they were placed (by an
// OpenMP static loop, so first-touched by the thread that schedule(static) gives them to):
// nothing migrates, a module run elsewhere reads its state remotely. Measured as the
// bulk-synchronous executor measures (harness/exec/step_recorder.h), with the same platform
// emulation, so the two are comparable step by step.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/base/schedule.h"
#include "harness/exec/executor.h"

namespace lbb {

class SelfScheduledExecutor final : public Executor {
 public:
  // kOmpStatic, kOmpDynamic, kOmpGuided (chunk >= 1), kOmpTasks, kOmpRuntime, or kChunked
  // with its technique and parameters.
  explicit SelfScheduledExecutor(ScheduleChoice schedule);
  SelfScheduledExecutor(InStepSchedule schedule, int chunk)
      : SelfScheduledExecutor(ScheduleChoice{schedule, chunk, LoopTechnique::kSS, Params{}}) {}

  // The plan takes no balancers. StepRecord::module_owner is the thread that ran the module in
  // that step (of a multi-phase step: in its first phase, as the bulk-synchronous executor
  // records owners); ExecutionResult::final_owner is where the states live.
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;
  std::string name() const override;  // the schedule's
  std::vector<StepMetric> metrics() const override;
  std::vector<WorkloadAttribute> attributes() const override;

  // Module runs (one per module and phase) of the recorded steps of the last run on a thread
  // other than the one holding the module's state.
  std::int64_t remote_runs() const { return remote_runs_; }

 private:
  ScheduleChoice schedule_;
  std::int64_t remote_runs_ = 0;
};

}  // namespace lbb
