#pragma once
// `execution.executor: simulate`: the same balancer objects, no kernel executed. Module costs come
// from a CostStream (synthetic, or a recorded run's), and P virtual processors, up to thousands,
// advance modelled clocks: a module of nominal cost c takes c (1 + L) / s on a processor of
// speed s under external load L (drawn as real runs draw it, at the modelled time), slowed
// further by the contention model. Steps are bulk-synchronous, phase after phase (each phase its
// own assignment and balancer); an in-step balancer synchronises its groups when their fastest
// finishes, again until a decision moves nothing or max_syncs were held (Zaki, Li & Parthasarathy
// 1997), by the bsp executor's own rule (hold_sync_rounds). Balancers see what they would see in a
// real run (nominal costs with external load, owners, busy times). What a machine would charge
// (harness/base/sim_settings.h) is added to the processors' balance and migration times and
// reported per step as metrics. Deterministic for a seed when decisions are modelled (measured
// decision times vary; the decisions do not). Under the predictive balancer (role async) or
// execution.sim_async, steps are asynchronous instead (harness/sim/sim_async_run.h), with the
// async executors' metrics and figures. StepRecord::wall is the modelled makespan: no wall clock
// means anything here.
#include <memory>
#include <string>
#include <vector>

#include "harness/base/recorded_runs.h"
#include "harness/base/run_spec.h"
#include "harness/base/schedule.h"
#include "harness/base/sim_settings.h"
#include "harness/exec/async_records.h"
#include "harness/exec/executor.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

// Per-step charges, the metrics the executor appends (sums over processors, seconds).
std::vector<StepMetric> simulate_metrics();

class SimulateExecutor final : public Executor {
 public:
  // costs: null takes them from a SyntheticCosts workload, or from settings.replay_set.
  // schedule: a loop self-scheduling technique (harness/sim/sim_run.h) in place of
  // the plan's balancers; kAssigned: the balancers. open_recorded: how settings.replay_set is
  // read (the results layer's reader; sim/ does not see it).
  explicit SimulateExecutor(SimSettings settings, std::shared_ptr<CostStream> costs = nullptr,
                            ScheduleChoice schedule = {}, RecordedRunsOpener open_recorded = {})
      : settings_(std::move(settings)),
        costs_(std::move(costs)),
        schedule_(std::move(schedule)),
        open_recorded_(std::move(open_recorded)) {}
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;
  std::string name() const override { return "simulate"; }
  bool executes_kernels() const override { return false; }
  std::vector<StepMetric> metrics() const override;
  std::vector<WorkloadAttribute> attributes() const override;

 private:
  std::shared_ptr<CostStream> stream_for(Workload& workload, const ExecutionPlan& plan);
  SimSettings settings_;
  std::shared_ptr<CostStream> costs_;
  ScheduleChoice schedule_;
  RecordedRunsOpener open_recorded_;
  AsyncFigures async_;  // of the last asynchronous run
};

// The simulator's settings for `spec`: its execution.sim_* keys, asynchronous under an async
// balancer (predictive) too.
SimSettings simulation_settings(const RunSpec& spec);
// Why a workload with a kernel has no costs to simulate under `settings` ("" when it has):
// no execution.replay_set to read them from.
std::string recorded_costs_problem(const SimSettings& settings);
// Why the simulator cannot run `spec` on any costs ("" when it can).
std::string simulation_problem(const RunSpec& spec);
// Why the simulate executor cannot run `spec` of `workload` from its config ("" when it can):
// simulation_problem, or a kernel's costs not recorded. The executor table (before the run) and
// `validate` (through the config's expansion) both ask this one function.
std::string simulated_run_problem(const RunSpec& spec, const WorkloadInfo& workload);

}  // namespace lbb
