#pragma once
// One configured run of an executor on its workload, as the runner drives it
// (harness/run/runner.cpp): the two shapes of workload (modules that persist across steps, tasks
// born level by level) behind one interface, so that one runner serves every executor.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/base/run_spec.h"
#include "harness/exec/executor.h"

namespace lbb {

class Execution {
 public:
  virtual ~Execution() = default;
  virtual std::string name() const = 0;  // the run's `executor` attribute in its result set
  // Width of the per-module datasets; 0: none (a level workload's module count changes).
  virtual int modules() const = 0;
  virtual int phases() const { return 1; }  // of each step, balanced separately
  // The workload's step metrics, then the executor's: one column each in StepRecord::metrics.
  virtual std::vector<std::string> metric_names() const = 0;
  virtual ExecutionResult run(StepSink& sink) = 0;
  // The serial reference verify compares a result with: the steps it covers (the result's own,
  // or 0 for a problem whose reference has no steps), and its computation.
  virtual int reference_steps(const ExecutionResult& result) const { return result.steps_run; }
  virtual std::shared_ptr<const SerialReference> reference(int steps) const = 0;
  virtual Verification verify(const ExecutionResult& result, const SerialReference& reference) = 0;
  // The workload's whole-run figures, then the executor's.
  virtual std::vector<WorkloadAttribute> attributes() const = 0;
  // False where no static partitioner places the work (tasks start on their parent's processor):
  // the run's `static` is then "".
  virtual bool partitions_statically() const { return true; }
};

// Builds a module executor for a spec (its schedule, parameters).
using ModuleExecutorFactory = std::function<std::unique_ptr<Executor>(const RunSpec&)>;
using ExecutionFactory =
    std::function<std::unique_ptr<Execution>(const RunSpec&, const WorkloadInfo&)>;

// A module workload with its static and dynamic balancers (one per phase) under the executor
// `make` builds (harness/exec/module_execution.cpp).
ExecutionFactory module_execution(ModuleExecutorFactory make);
// A level workload under the level executor (harness/exec/level_execution.cpp).
std::unique_ptr<Execution> level_execution(const RunSpec& spec, const WorkloadInfo& workload);

}  // namespace lbb
