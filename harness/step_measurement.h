#pragma once
// Turning processors' measurements of a step into a StepRecord for an executor that takes no
// decisions inside the step (docs/ARCHITECTURE.md, "The two clocks"): busy is thread CPU time of
// work, and the modelled makespan is the sum over phases of the slowest processor's, plus serial.
#include <span>
#include <vector>

#include "harness/emulated_run.h"
#include "harness/step_record.h"

namespace lbb {

// One processor's measurements of a step's compute phases, padded against false sharing.
struct alignas(64) ProcessorStep {
  double start = 0, end = 0;      // wall clock: start of its first phase, end of its last work
  double busy_wall = 0;           // wall seconds running modules (preemption included)
  LoadTally load;                 // emulated external load over its modules
  std::vector<double> phase_cpu;  // thread CPU seconds of work per phase (no waiting)
  double busy_cpu() const;
  void clear(int phases);
};

// Fills the compute columns of `rec` (busy, busy_wall, external_load, compute_wall, ideal =
// sum(busy x speed) / sum(speed)) and zeroes idle, proc_balance and proc_migration.
void record_compute(std::span<const ProcessorStep> procs, std::span<const double> speed,
                    StepRecord& rec);

// A barrier ends every phase: makespan = sum over phases of max_p(phase CPU) + serial, as the
// bulk-synchronous executor's without decisions; idle per processor is what remains of
// makespan - serial. Needs record_compute's columns and rec.serial.
void record_makespan(std::span<const ProcessorStep> procs, StepRecord& rec);

}  // namespace lbb
