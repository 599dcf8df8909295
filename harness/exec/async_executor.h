#pragma once
// The asynchronous executor (Iqbal, Saltz & Bokhari 1986, sections 2 and 6): no barrier between
// steps. Each module keeps its own step number and runs step s as soon as every module it
// depends on (Workload::dependencies()) has finished step s-1; each processor advances whichever
// of its modules are ready, lowest step first, and idles (recorded) when none is. The predictive
// balancer, when given, moves modules while the others run: a processor whose potential work
// falls below its threshold takes a module from a neighbour. The run ends when every module has
// run every step; the result is the bulk-synchronous one, since every module reads exactly its
// neighbours' data of the previous step.
//
// The processors act as the host runs them (kArrival, `async`), or in the order of their
// modelled clocks, one at a time (kModelled, `async_modelled`; see AsyncOrder).
//
// Time is modelled from the measured CPU costs, as in the other executors: every processor has a
// clock that a module step advances by its CPU time, starting no earlier than the processor's
// clock and the finish of the steps it depends on; decisions and copies advance the clock by
// their CPU time too. Utilization is busy time over P x the modelled time, the paper's measure.
// Under kArrival on a host with fewer free cores than processors the order of events (and so
// the balancer's decisions) follows which threads the host runs, which the modelled times do
// not show: use kModelled there.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/exec/async_run.h"
#include "harness/exec/executor.h"

namespace lbb {

// Names of the figures the executor appends to each step's StepRecord::metrics, after the
// workload's own step metrics.
std::vector<StepMetric> async_metrics();

class AsyncExecutor final : public Executor {
 public:
  explicit AsyncExecutor(AsyncOrder order = AsyncOrder::kArrival) : order_(order) {}

  // plan.dynamic: the predictive balancer or none; plan.initial: the start (null: block).
  // Throws std::invalid_argument for a workload without dependencies() or another balancer.
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;

  // Of the last run, over its recorded steps: busy / (P x modelled time), module takes per step,
  // and the wall seconds processors waited for data, summed over processors.
  double utilization() const { return utilization_; }
  double moves_per_step() const { return moves_per_step_; }
  double idle_wall() const { return idle_wall_; }
  std::string name() const override;
  std::vector<StepMetric> metrics() const override;
  std::vector<WorkloadAttribute> attributes() const override;

 private:
  AsyncOrder order_;
  double utilization_ = 0;
  double moves_per_step_ = 0;
  double idle_wall_ = 0;
};

}  // namespace lbb
