#pragma once
// The one place where a step's measurements become a StepRecord, the same for every executor
// (docs/ARCHITECTURE.md, "Metrics" and "The two clocks"). Each processor fills its own
// ProcessorTimes during the step; StepRecorder::close turns them into the record:
//   busy[p]       = sum over phases of its CPU time running modules
//   ideal         = sum_p busy[p] x speed[p] / sum_p speed[p]: the nominal work (busy time at
//                   speed 1) spread over the processors by speed, the lower bound
//   makespan      = sum over phases of max_p(the phase's modelled time on p: its finish, then
//                   the phase-end decision and copies) + serial: a barrier ends every phase
//   idle[p]       = makespan - serial - (busy[p] + proc_balance[p] + proc_migration[p])
//   balance       = sum over phases of max_p(decision time): the decider's time, which all waited
// and, over a record, step_imbalance() and efficiency() below.
#include <cstdint>
#include <span>
#include <vector>

#include "harness/base/step_record.h"
#include "harness/exec/emulated_run.h"

namespace lbb {

// One processor's times in one phase of a step, CPU seconds unless named wall. Padded: each
// processor's phases live in their own allocation, which must not share a cache line with
// another processor's (written by both every step, it would cross between their cores).
struct alignas(64) PhaseTimes {
  double busy = 0;     // running modules
  double finish = 0;   // modelled, from the phase's start to its last module: busy, or after a
                       // group synchronisation: the group's last arrival + decision + copies + rest
  double balance = 0;  // deciding at an in-step synchronisation: its own time, or the decider's
  double migration = 0;      // copying in the modules it gained at the synchronisation
  double end_balance = 0;    // deciding at the phase's end: its own time, or the decider's
  double end_migration = 0;  // copying in its modules of the next phase or step
  double balance_wall = 0, end_balance_wall = 0;
};

// One processor's measurements of the current step, padded against false sharing. Written only
// by its processor during the step (or by one thread between barriers). What a step writes fills
// the first cache line; the phases' handle, never written after construction, is on the second.
struct alignas(64) ProcessorTimes {
  double start = 0, end = 0;  // wall clock: start of its first phase, end of its last work
  double busy_wall = 0;       // wall seconds running modules (preemption included)
  LoadTally load;             // emulated external load over its modules
  std::int64_t migrated = 0, bytes = 0;  // module copies it made during the step
  int triggered = 0;                     // group synchronisations it triggered by finishing first
  std::vector<PhaseTimes> phase;

  void clear();  // keeps the number of phases
};

// CPU seconds of the work every step did, warm-up steps included, for `lbbench run --costs`
// (harness/run/run_costs.h): what the run's process CPU time holds besides the harness.
struct StepWork {
  double modules = 0;    // sum over steps and processors of busy: the kernels' modules
  double serial = 0;     // the workload's serial end of step (a kernel's serial part)
  double balancing = 0;  // decisions (the decider's CPU, as `balance`) and every module copy
};

class StepRecorder {
 public:
  StepRecorder(std::span<const double> speed, int phases);

  int processors() const { return static_cast<int>(procs_.size()); }
  ProcessorTimes& processor(int p) { return procs_[p]; }
  const ProcessorTimes& processor(int p) const { return procs_[p]; }
  void clear();  // every processor's times; between barriers only
  double first_start() const;

  // Fills every measured column of `rec` from the processors' times; `serial` is the workload's
  // serial end-of-step CPU time, `wall` the step's wall time. Leaves step, metrics and the module
  // columns, which only the executor knows, as they are. Adds the step to work(): call it for
  // warm-up steps too.
  void close(StepRecord& rec, double serial, double wall);
  const StepWork& work() const { return work_; }

 private:
  std::vector<double> speed_;
  std::vector<ProcessorTimes> procs_;
  alignas(64) StepWork work_;  // written every step: off the line of procs_, read by all
};

// Of one step: max_p busy / mean_p busy - 1 (0 when nothing ran).
double step_imbalance(std::span<const double> busy);
// Of a run or a step: ideal / makespan (0 when the makespan is 0).
double efficiency(double ideal, double makespan);
// Adds a decision's predicted makespans (before, after) to the step's, summed over its phases:
// NaN until a decision predicts one.
void add_predictions(StepRecord& rec, double before, double after);

}  // namespace lbb
