#pragma once
// The bulk-synchronous executor across MPI ranks: processors = ranks x threads per rank. A module's
// state lives on its owner's rank; after each phase the ranks exchange the workload's outputs
// (Workload::phase_outputs) and the measured costs, every rank builds the same step record, and a
// balancer decides on every rank (distributed schemes of all processors), each rank its own
// processors' part on the loads their scope reads (Balancer::scope(): Franklin & Govindan 1995's
// schemes; harness/mpi/scoped_decision.h), or on rank 0, which sends its decision.
// A move within a rank is a copy, across ranks one MPI message of the state's bytes; both are
// counted and timed apart in the step's metrics (docs/engine.md, "Across processes").
// Given an in-step schedule instead of balancers, it runs hybrid MPI+OpenMP: modules placed in
// blocks over the processors, each rank's threads take its processors' modules as the schedule
// hands them out (LB4OMP's schedules inside the ranks of an MPI program); nothing moves.
#include <array>
#include <cstdint>
#include <optional>

#include "harness/base/schedule.h"
#include "harness/exec/executor.h"

namespace lbb {

class MpiExecutor final : public Executor {
 public:
  MpiExecutor() = default;
  // Self-scheduled within each rank (any schedule but kAssigned); the plan takes no balancer.
  explicit MpiExecutor(ScheduleChoice schedule);

  // StepRecord::module_owner is, under a schedule, the processor (thread) that ran the module in
  // the step's first phase, as the self-scheduled executor records it.
  ExecutionResult run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                      StepSink& sink) override;
  std::string name() const override { return schedule_ ? "mpi_self_scheduled" : "mpi"; }
  std::vector<StepMetric> metrics() const override;
  std::vector<WorkloadAttribute> attributes() const override;

  // The per-step figures, in metrics() order.
  enum Figure {
    kExchangeBytes,
    kExchangeSeconds,
    kRemoteMigrations,
    kRemoteBytes,
    kRemoteSeconds,
    kLocalMigrations,
    kLocalBytes,
    kLocalSeconds,
    kBalanceMessages,
    kBalanceBytes,
    kRemoteRuns,  // under a schedule only
    kFigures
  };
  using Figures = std::array<double, kFigures>;

 private:
  std::optional<ScheduleChoice> schedule_;
  Figures totals_{};
  int ranks_ = 1, threads_ = 1;
};

}  // namespace lbb
