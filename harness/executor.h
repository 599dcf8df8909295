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
  Balancer* dynamic = nullptr;  // between-step balancer; null: never rebalance
  bool record_modules = false;  // fill StepRecord::module_cost/module_owner
};

struct ExecutionResult {
  int steps_run = 0;  // warm-up included: what the workload has computed
  double initial_partition_seconds = 0;
  double record_seconds = 0;    // time spent handing records to the sink (archive I/O)
  double run_wall = 0;          // the whole run, placement to last step
  std::int64_t migrations = 0;  // over all steps, warm-up included
  std::int64_t bytes_moved = 0;
  std::vector<int> final_owner;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                              StepSink& sink) = 0;
};

// Bulk-synchronous: every processor finishes step s before any starts s+1.
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
