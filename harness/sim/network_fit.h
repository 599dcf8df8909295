#pragma once
// Calibration of the simulator's network charges (execution.sim_latency, sim_bandwidth) from runs
// across MPI ranks (executor mpi, harness/mpi/): each recorded step's moves across ranks took
// t = L m + b / B seconds for m messages of b bytes; L and 1 / B by least squares of the relative
// error over the steps that moved something (a loaded host only ever slows a step: a step it
// delayed must not drag the fit), each clamped at 0 (a negative fit says the noise hides that
// term).
#include <vector>

#include "harness/results/result_reader.h"

namespace lbb {

struct NetworkFit {
  double latency = 0;    // s a message
  double bandwidth = 0;  // B/s; 0: the bytes' term fitted as free
  int steps = 0;         // steps with moves across ranks
  int runs = 0;
  double median_error = 0;  // over the steps, |fitted / measured - 1|
};

// Throws std::invalid_argument when no mpi run moved a module across ranks.
NetworkFit fit_network(const ResultReader& archive);

}  // namespace lbb
