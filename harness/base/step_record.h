#pragma once
// Everything measured in one step, as a result set stores it (docs/results.md).
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/module_graph.h"
#include "harness/base/clock.h"

namespace lbb {

struct StepRecord {
  int step = 0;             // measured step index (warm-up steps are not recorded)
  double wall = 0;          // s: compute + serial + balance + migration phases, wall clock
  double compute_wall = 0;  // s: first processor start to last processor end
  double makespan = 0;      // s: modelled, sum over phases of max_p(its time) + serial, CPU
  double ideal = 0;         // s: sum of busy CPU time / sum of speeds (the lower bound)
  double serial = 0;        // s: the workload's serial end-of-step work (CPU)
  double balance = 0;       // s: decision time, sum over phases of the largest processor's (CPU)
  double balance_wall = 0;  // s: wall time of the step's decisions (waiting for them included)
  std::int64_t migrations = 0;  // module copies during the step and after it (its decisions)
  std::int64_t bytes_moved = 0;
  // s: predicted makespan (max_p sum(cost) / speed, summed over phases) of the assignment the
  // step's between-step decisions started from and of the one they proposed (moved or declined);
  // NaN when no decision predicted one
  double predicted_before = std::numeric_limits<double>::quiet_NaN();
  double predicted_after = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> busy;            // [P] s, thread CPU time running modules
  std::vector<double> busy_wall;       // [P] s, wall time running modules (preemption included)
  std::vector<double> idle;            // [P] s, makespan - serial - (busy + balance + migration)
  std::vector<double> proc_balance;    // [P] s, its own decision time, or the decider's it waited
  std::vector<double> proc_migration;  // [P] s, CPU time copying module states in
  std::vector<double> external_load;   // [P] emulated load level, mean over busy time
  std::vector<int> triggered;          // [P] group synchronisations it triggered by finishing first
  std::vector<double> module_cost;     // [M] s, per module, scaled to the owner's CPU time
  std::vector<int> module_owner;       // [M] owner during the step
  // Workloads of several phases F: per phase, each module's cost and the processor that ran it
  // ([F x M], phase-major), what a replay of each phase needs
  std::vector<double> phase_module_cost;
  std::vector<int> phase_module_owner;
  // Per phase, the processor that held each module when the phase began ([F x M], phase-major;
  // an in-step balancer may have moved it before it ran), each module's state bytes when the
  // step began (after a warm-up, those at its end) and at the step's end (after the workload's
  // end of step: what a move after the step copies), and what the workload's end of step moved
  // between module states (Workload::step_transfers)
  std::vector<int> phase_module_start;
  std::vector<std::uint64_t> module_start_bytes, module_bytes;
  std::vector<ModuleTransfer> transfers;
  std::vector<double> metrics;  // the workload's step metrics (e.g. residual)
};

class StepSink {
 public:
  virtual ~StepSink() = default;
  virtual void on_step(const StepRecord& record) = 0;
  // Records that finish together (an asynchronous run's, built after it): handed on
  // together, so that a sink that takes them at once need not take one call a step.
  virtual void on_steps(std::span<const StepRecord> records) {
    for (const StepRecord& r : records) on_step(r);
  }
};

// Hands `record` to `sink` and adds the CPU seconds `clock` gives it (the journal append, and a
// batched commit when one is due) to `seconds`: CPU, since `run --costs` shares CPU (a StretchClock
// that is not exact counts a short hand-over, and a long one after short ones, by wall time).
inline void record_step(StepSink& sink, const StepRecord& record, double& seconds,
                        StretchClock& clock) {
  clock.start();
  sink.on_step(record);
  seconds += clock.stop();
}
// Hands over records that finished together, the thread CPU clock read around them all.
inline void record_steps(StepSink& sink, std::span<const StepRecord> records, double& seconds) {
  StretchClock exact(true);
  exact.start();
  sink.on_steps(records);
  seconds += exact.stop();
}
// One record on an exact clock: the thread CPU clock read around the hand-over.
inline void record_step(StepSink& sink, const StepRecord& record, double& seconds) {
  record_steps(sink, {&record, 1}, seconds);
}

}  // namespace lbb
