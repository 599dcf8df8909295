#pragma once
// The level-synchronous executor (Hwang & Hong 2001, section 3): the tasks of level i are
// generated, balanced and executed before any task of level i+1. Tasks are born on the
// processor that ran their parent. Each level either follows an assignment (a balancer decides
// it from the tasks' predicted costs E_a, hop costs B_a + M_a and creators; moved task states are
// really copied by their new owner) or an in-step schedule lets the threads take the tasks as
// they go. Every level yields one StepRecord measured with the two clocks, plus the paper's
// model figures: LB = sum E_a / N and T_i = max load + max d(f(a), g(a)) (B_a + M_a).
#include <cstdint>
#include <vector>

#include "balancers/balancer.h"
#include "harness/base/platform_emulation.h"
#include "harness/base/schedule.h"
#include "harness/base/step_record.h"
#include "harness/exec/step_recorder.h"
#include "workloads/level_workload.h"

namespace lbb {

struct LevelPlan {
  int processors = 1;
  const Topology* topology = nullptr;
  std::vector<double> speed;     // per processor, emulated (harness/base/platform_emulation.h)
  ExternalLoad external_load;    // emulated transient load
  Balancer* balancer = nullptr;  // kAssigned: decides every level; null: tasks stay put
  InStepSchedule schedule = InStepSchedule::kAssigned;
  int chunk = 1;  // kOmpDynamic, kOmpGuided
};

struct LevelResult {
  int levels = 0;
  double run_wall = 0;
  double record_seconds = 0;  // thread CPU handing records to the sink (record_step)
  StepWork work;              // every level's (run --costs)
  std::int64_t tasks = 0;
  std::int64_t migrations = 0;  // tasks run away from their creator (copied, or read remotely)
  std::int64_t bytes_moved = 0;
  double lb_model = 0;    // sum over levels of LB, in the workload's cost units
  double t_model = 0;     // sum over levels of T_i
  double comm_model = 0;  // sum over levels of the communication term of T_i
  int max_distance = 0;   // farthest any task ran from its creator
};

// Names of the figures the executor appends to each level's StepRecord::metrics, after the
// workload's own level metrics.
std::vector<StepMetric> level_executor_metrics();

class LevelExecutor {
 public:
  LevelResult run(LevelWorkload& workload, const LevelPlan& plan, StepSink& sink);
};

}  // namespace lbb
