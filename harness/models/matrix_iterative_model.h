#pragma once
// Franklin & Govindan 1995's general matrix iterative model of dynamic load balancing, solved
// numerically as an analytic predictor: the expected task distribution evolves as
//   w(k+1) = w(k) + M(k)^T A(k) (w(k) - w*(k)) + lambda(k) - mu(k)      (eq. 4, 8, 11, 13)
// and the total time and speedup follow from eq. 15-17. Tasks are real numbers (expected
// values); the random strategy's random neighbour is its expectation (alpha / degree to each).
#include <string>
#include <string_view>
#include <vector>

#include "core/topology.h"

namespace lbb {

enum class MatrixModelAlgorithm { kNone, kRandom, kDiffusion, kRedistribution, kIdeal };
// "none", "random", "diffusion", "redistribution", "ideal"; throws std::invalid_argument.
MatrixModelAlgorithm parse_matrix_model_algorithm(std::string_view name);
std::string_view matrix_model_algorithm_name(MatrixModelAlgorithm a);

struct MatrixModelParams {
  TopologyKind topology = TopologyKind::kChain;  // H: which processors exchange tasks
  std::vector<double> speeds;                    // C_i; empty: all 1
  double tasks = 1024;     // sum of w(0), spread as the ideal distribution (section 5.1)
  int iterations = 100;    // max_iter
  double crossing = 0.05;  // mu_i = crossing x w_i, spread evenly over the neighbours (4.1)
  double alpha = 0.5;      // random: fraction of the excess sent (eq. 7)
  double threshold = 1.1;  // w* = threshold x w_bar (random, redistribution) or x w~ (diffusion)
  double task_seconds = 1e-3;   // f_task / C at speed 1 (eq. 15)
  double move_seconds = 1e-4;   // T_lb: per task sent or received
  double decide_seconds = 0;    // T_lb: per processor, per iteration it balances
  double exchange_seconds = 0;  // per iteration and other processor (the application's exchange)
};

struct MatrixModelResult {
  double total = 0;    // T_total^(p), eq. 15
  double serial = 0;   // T_total^(1) on P_1: every task at C_1, no exchange, no balancing
  double speedup = 0;  // eq. 17
  double moved = 0;    // tasks transferred by balancing, all iterations
  std::vector<double> final_tasks;  // w(max_iter)
};

// One step of the model: the balancing term M^T A (w - w*) of `algorithm` for distribution w
// (the transfer vector added to w). Exposed for tests; throws std::invalid_argument on bad sizes.
std::vector<double> balancing_transfer(MatrixModelAlgorithm algorithm, const Topology& topology,
                                       const std::vector<double>& speeds,
                                       const std::vector<double>& w, double alpha,
                                       double threshold);

// Solves the model for P processors. Throws std::invalid_argument on bad parameters.
MatrixModelResult solve_matrix_model(MatrixModelAlgorithm algorithm, int processors,
                                     const MatrixModelParams& params);

}  // namespace lbb
