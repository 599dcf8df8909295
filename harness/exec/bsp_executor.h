#pragma once
// Bulk-synchronous: every processor finishes step s before any starts s+1, and every phase of a
// step before any starts the next phase. Each phase has its own assignment and balancer. A
// balancer whose sync_trigger() says on_fastest_finish rebalances inside the phase, when the
// fastest processor of a group finishes (Zaki, Li & Parthasarathy 1997); others between steps.
#include <string>

#include "harness/exec/executor.h"

namespace lbb {

class BspExecutor final : public Executor {
 public:
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;
  std::string name() const override { return "bsp"; }
};

}  // namespace lbb
