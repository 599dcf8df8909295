#pragma once
// Calibration of the simulator's contention model (execution.sim_contention) from real runs:
// the same configuration run at several P, total busy CPU time B(P) over B(1) against the model,
// every processor slowed by 1 + c (P - 1) while P are busy, so B(P) / B(1) = 1 + c (P - 1). The
// least-squares c through the origin: sum (r - 1)(P - 1) / sum (P - 1)^2.
#include <string>
#include <vector>

#include "harness/base/recorded_runs.h"

namespace lbb {

struct ContentionPoint {
  std::string group;  // workload, balancer and sweep less processors
  int processors = 1;
  double ratio = 1;  // median busy total at P over the median at 1 processor
};

struct ContentionFit {
  double c = 0;
  std::vector<ContentionPoint> points;
};

// Throws std::invalid_argument when no configuration was run at 1 and at more processors.
ContentionFit fit_contention(const RecordedRuns& set);

}  // namespace lbb
