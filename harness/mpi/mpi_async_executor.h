#pragma once
// The asynchronous executor across MPI ranks (`mpirun -np R lbbench run`, execution.executor:
// async): processors = ranks x threads per rank, as the mpi executor's. Each rank runs its
// processors on worker threads and its communication agent on the master thread
// (harness/mpi/rank_agent.h). A module's state lives on its owner's rank. Every finished module
// step is sent to every other rank with the workload's outputs of that step, so every rank keeps
// every module's step count, the outputs its modules read, and a replica of the predictive
// balancer's state; each rank closes every step itself. A take between processors of one rank is
// a copy, as in one process; one across ranks is a request to the giver's rank, granted with the
// module's state in one message (or refused when the module is busy or gone). Both are counted
// and timed apart in the step's metrics (docs/engine.md, "Across processes").
#include <array>
#include <string>

#include "harness/exec/executor.h"
#include "harness/mpi/rank_agent.h"

namespace lbb {

class MpiAsyncExecutor final : public Executor {
 public:
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;
  std::string name() const override { return "mpi_async"; }
  std::vector<StepMetric> metrics() const override;
  std::vector<WorkloadAttribute> attributes() const override;

  using Figures = std::array<double, RankAgent::kFigures>;

 private:
  Figures totals_{};
  double utilization_ = 0, moves_per_step_ = 0, idle_wall_ = 0;
  int ranks_ = 1, threads_ = 1;
};

}  // namespace lbb
