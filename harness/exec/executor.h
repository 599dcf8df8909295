#pragma once
// An executor runs a workload's modules on P processors (OpenMP threads) for a number of steps,
// applying balancer decisions (or an in-step schedule) and reporting one StepRecord per measured
// step. The executors of module workloads implement Executor; the runner picks one by
// `execution.executor` from harness/run/executor_registry.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "balancers/balancer.h"
#include "harness/base/load_model.h"
#include "harness/base/module_store.h"
#include "harness/base/platform_emulation.h"
#include "harness/base/step_record.h"
#include "harness/base/timeline_span.h"
#include "harness/exec/step_recorder.h"
#include "workloads/workload.h"

namespace lbb {

struct ExecutionPlan {
  int processors = 1;
  int warmup = 0;  // steps run (and balanced) but not recorded
  int steps = 1;   // recorded steps
  const Topology* topology = nullptr;
  std::vector<double> speed;    // per processor, (0, 1]: emulated by busy work (below 1)
  ExternalLoad external_load;   // emulated transient load per processor; max 0: none
  Balancer* initial = nullptr;  // static partitioner; null: block
  Balancer* dynamic = nullptr;  // between-step balancer (phase 0's); null: never rebalance
  // A workload with phases() > 1 balances each phase separately: the balancers of phases 1, 2,
  // ..., one object per phase since balancers may keep history; empty: `dynamic` serves all.
  std::vector<Balancer*> later_phase_dynamic;
  // A balancer entry's options (harness/config/config_keys.h): the between-step balancers decide
  // after every balance_every-th step only, on what the load model predicts.
  int balance_every = 1;
  LoadModelSpec load_model;
  bool record_modules = false;  // fill StepRecord::module_cost/module_owner
  bool timeline = false;        // execution.timeline: measure ExecutionResult::spans
};

struct ExecutionResult {
  int steps_run = 0;  // warm-up included: what the workload has computed
  double initial_partition_seconds = 0;
  double record_seconds = 0;  // thread CPU handing records to the sink (record_step)
  // Thread CPU a model spent building its step records from its state (simulators, and the
  // asynchronous executors after the run): bookkeeping, not the model, in `run --costs`.
  double record_build_seconds = 0;
  double run_wall = 0;          // the whole run, placement to last step
  std::int64_t migrations = 0;  // over all steps, warm-up included
  std::int64_t bytes_moved = 0;
  StepWork work;                 // CPU of every step's work, warm-up included (run --costs)
  double placement = 0;          // CPU seconds the threads spent creating the modules' states
  std::vector<int> final_owner;  // of phase 0
  std::vector<std::vector<int>> final_phase_owner;  // [phase][module]
  // Of the run's row (harness/base/run_record.h), where its shape has them: a level workload's
  // levels (its `steps`; -1: the spec's steps), tasks and farthest hop; a run across MPI ranks'
  // rank:host:threads for each rank.
  std::int64_t levels = -1, tasks_total = -1, max_distance = -1;
  std::string ranks;
  // execution.timeline: every processor's measured spans (harness/exec/timeline_recorder.h);
  // empty where the executor measures none (simulators, self-scheduled and asynchronous runs).
  std::vector<TimelineSpan> spans;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                              StepSink& sink) = 0;
  // What the run's `executor` attribute in its result set calls it.
  virtual std::string name() const = 0;
  // Figures it appends to each StepRecord::metrics, after the workload's own step metrics.
  virtual std::vector<StepMetric> metrics() const { return {}; }
  // False for a simulator: nothing ran, so there is nothing to verify.
  virtual bool executes_kernels() const { return true; }
  // Whole-run figures of the last run, recorded beside the workload's attributes.
  virtual std::vector<WorkloadAttribute> attributes() const { return {}; }
};

}  // namespace lbb
