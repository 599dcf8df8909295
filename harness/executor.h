#pragma once
// An executor runs a workload's modules on P processors (OpenMP threads) for a number of steps,
// applying balancer decisions between steps and reporting one StepRecord per measured step.
#include <cstdint>
#include <vector>

#include "balancers/balancer.h"
#include "harness/module_store.h"
#include "harness/platform_emulation.h"
#include "harness/step_record.h"
#include "workloads/workload.h"

namespace lbb {

struct ExecutionPlan {
  int processors = 1;
  int warmup = 0;  // steps run (and balanced) but not recorded
  int steps = 1;   // recorded steps
  const Topology* topology = nullptr;
  std::vector<double> speed;    // per processor, (0, 1]: emulated by busy work (below 1)
  ExternalLoad external_load;   // emulated transient load; max 0: none
  Balancer* initial = nullptr;  // static partitioner; null: block
  Balancer* dynamic = nullptr;  // between-step balancer (phase 0's); null: never rebalance
  // A workload with phases() > 1 balances each phase separately: the balancers of phases 1, 2,
  // ..., one object per phase since balancers may keep history; empty: `dynamic` serves all.
  std::vector<Balancer*> later_phase_dynamic;
  bool record_modules = false;  // fill StepRecord::module_cost/module_owner
};

struct ExecutionResult {
  int steps_run = 0;  // warm-up included: what the workload has computed
  double initial_partition_seconds = 0;
  double record_seconds = 0;    // time spent handing records to the sink (archive I/O)
  double run_wall = 0;          // the whole run, placement to last step
  std::int64_t migrations = 0;  // over all steps, warm-up included
  std::int64_t bytes_moved = 0;
  std::vector<int> final_owner;                     // of phase 0
  std::vector<std::vector<int>> final_phase_owner;  // [phase][module]
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                              StepSink& sink) = 0;
};

// Bulk-synchronous: every processor finishes step s before any starts s+1, and every phase of a
// step before any starts the next phase. Each phase has its own assignment and balancer. A
// balancer whose sync_trigger() says on_fastest_finish rebalances inside the phase, when the
// fastest processor of a group finishes (Zaki, Li & Parthasarathy 1997); others between steps.
class BspExecutor final : public Executor {
 public:
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;
};

// The view a balancer gets of a workload before the first step (predicted weights).
LoadView initial_view(const Workload& workload, const std::vector<double>& weights,
                      const std::vector<std::uint64_t>& bytes, const std::vector<double>& coords,
                      const ExecutionPlan& plan);

}  // namespace lbb
