#pragma once
// Franklin & Govindan 1995, section 5.2 (Fig. 5): the matrix iterative model's speedup (eq. 17)
// beside the measured one, for no balance, random, diffusion, redistribution and the ideal bound
// (eq. 16), at each processor count; the paper found them "well below 20 %" apart.
//
// The model is calibrated from the measured no-balance run on one processor only: f_task / C
// is its busy CPU time per module and step (ideal_total / (steps x modules)), and its serial
// end-of-step work (makespan - ideal - balance; the Barnes-Hut tree build, which the model has
// no term for) is added to every modelled total, as it is to every measured one. Tasks are
// modules (what the balancers move), iterations are steps, H is the run's topology, alpha and
// w* are the run's own parameters, and T_lb's per-processor decision time is the run's measured
// balance_total / steps. Not measured: the crossing rate mu, taken as kCrossing.
#include <iosfwd>
#include <string>
#include <vector>

#include "harness/results/result_reader.h"

namespace lbb {

// mu_i = kCrossing x w_i per step (the model's section 4.1); the runs record no particle flows.
inline constexpr double kMatrixModelCrossing = 0.05;

struct ModelSpeedup {
  std::string balancer;  // the run's label, or "ideal"
  int processors = 0;
  double measured = 0;  // median makespan_total(no balance, P = 1) / median makespan_total here
  double model = 0;     // eq. 17 with the calibrated model (plus the serial work)
  double error() const { return measured > 0 ? (model - measured) / measured : 0; }
};

// One row per balancer label (none, random, diffusion, redistribution) and processor count,
// plus the ideal bound per processor count; empty when the runs have no complete no-balance
// run on one processor. Runs of other balancers are left out.
std::vector<ModelSpeedup> compare_matrix_model(const std::vector<RunRecord>& runs);

// The largest |error| over the rows (0 when there are none).
double largest_model_error(const std::vector<ModelSpeedup>& rows);

void print_model_speedups(std::ostream& out, const std::vector<ModelSpeedup>& rows, double within);

}  // namespace lbb
