#include "harness/models/matrix_iterative_model.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace lbb {
namespace {

struct MatrixDeleter {
  void operator()(gsl_matrix* m) const { gsl_matrix_free(m); }
};
using Matrix = std::unique_ptr<gsl_matrix, MatrixDeleter>;

Matrix zero_matrix(int p) {
  return Matrix(gsl_matrix_calloc(p, p));
}

// y = M^T v (GSL's BLAS: dgemv, here OpenBLAS's cblas).
std::vector<double> transpose_times(const gsl_matrix* m, std::vector<double> v) {
  std::vector<double> y(v.size(), 0.0);
  gsl_vector_view vv = gsl_vector_view_array(v.data(), v.size());
  gsl_vector_view yv = gsl_vector_view_array(y.data(), y.size());
  gsl_blas_dgemv(CblasTrans, 1.0, m, &vv.vector, 0.0, &yv.vector);
  return y;
}

double sum(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

// Franklin & Govindan 1995, eq. 5: tasks in proportion to computing power.
std::vector<double> global_ideal(const std::vector<double>& c, const std::vector<double>& w) {
  std::vector<double> ideal(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) ideal[i] = c[i] / sum(c) * sum(w);
  return ideal;
}

// Eq. 6: the ideal a processor computes from its 1-step neighbourhood.
std::vector<double> local_ideal(const Topology& h, const std::vector<double>& c,
                                const std::vector<double>& w) {
  std::vector<double> ideal(w.size());
  for (int i = 0; i < h.size(); ++i) {
    double power = c[i], tasks = w[i];
    for (int j : h.neighbours(i)) power += c[j], tasks += w[j];
    ideal[i] = c[i] / power * tasks;
  }
  return ideal;
}

// Eq. 7-8: a processor above w* = threshold x w_bar sends alpha of its excess to a random
// neighbour; in expectation alpha / degree to each.
std::vector<double> random_transfer(const Topology& h, const std::vector<double>& c,
                                    const std::vector<double>& w, double alpha, double threshold) {
  const int p = h.size();
  const std::vector<double> ideal = global_ideal(c, w);
  Matrix m = zero_matrix(p);
  std::vector<double> excess(p, 0.0);  // A (w - w*)
  for (int i = 0; i < p; ++i) {
    const double target = threshold * ideal[i];
    if (w[i] <= target || h.neighbours(i).empty()) continue;
    excess[i] = w[i] - target;
    gsl_matrix_set(m.get(), i, i, -alpha);
    for (int j : h.neighbours(i))
      gsl_matrix_set(m.get(), i, j, alpha / static_cast<double>(h.neighbours(i).size()));
  }
  return transpose_times(m.get(), excess);
}

// Eq. 9-11 and Figure 2: a processor above w* = threshold x w~ sends w - w~ to the neighbours
// below w~ C_j / C_i, in proportion to their shortfall. (Eq. 11 writes w - w*; Figure 2 and the
// text send everything above the local ideal, which is what is modelled.)
std::vector<double> diffusion_transfer(const Topology& h, const std::vector<double>& c,
                                       const std::vector<double>& w, double threshold) {
  const int p = h.size();
  const std::vector<double> ideal = local_ideal(h, c, w);
  Matrix m = zero_matrix(p);
  std::vector<double> excess(p, 0.0);
  for (int i = 0; i < p; ++i) {
    if (w[i] <= threshold * ideal[i]) continue;
    double shortfall = 0;
    for (int j : h.neighbours(i))
      if (w[j] < threshold * ideal[i] * c[j] / c[i])
        shortfall += std::max(0.0, ideal[i] * c[j] / c[i] - w[j]);
    if (shortfall <= 0) continue;
    excess[i] = w[i] - ideal[i];
    gsl_matrix_set(m.get(), i, i, -1.0);
    for (int j : h.neighbours(i))
      if (w[j] < threshold * ideal[i] * c[j] / c[i])
        gsl_matrix_set(m.get(), i, j,
                       std::max(0.0, ideal[i] * c[j] / c[i] - w[j]) / shortfall);  // eq. 10
  }
  return transpose_times(m.get(), excess);
}

// Eq. 12-13: once any processor exceeds w* = threshold x w_bar, every one takes part and
// w + M^T w = w_bar exactly (M_ij = w_bar_j / W: the pooled redistribution the paper names).
std::vector<double> redistribution_transfer(const std::vector<double>& c,
                                            const std::vector<double>& w, double threshold) {
  const int p = static_cast<int>(w.size());
  const std::vector<double> ideal = global_ideal(c, w);
  bool active = false;
  for (int i = 0; i < p; ++i) active = active || w[i] > threshold * ideal[i];
  if (!active) return std::vector<double>(p, 0.0);
  Matrix m = zero_matrix(p);
  for (int i = 0; i < p; ++i)
    for (int j = 0; j < p; ++j) gsl_matrix_set(m.get(), i, j, ideal[j] / sum(w) - (i == j));
  return transpose_times(m.get(), w);  // A = I
}

}  // namespace

MatrixModelAlgorithm parse_matrix_model_algorithm(std::string_view name) {
  for (auto a : {MatrixModelAlgorithm::kNone, MatrixModelAlgorithm::kRandom,
                 MatrixModelAlgorithm::kDiffusion, MatrixModelAlgorithm::kRedistribution,
                 MatrixModelAlgorithm::kIdeal})
    if (matrix_model_algorithm_name(a) == name) return a;
  throw std::invalid_argument("unknown model algorithm '" + std::string(name) +
                              "' (known: none, random, diffusion, redistribution, ideal)");
}

std::string_view matrix_model_algorithm_name(MatrixModelAlgorithm a) {
  switch (a) {
    case MatrixModelAlgorithm::kNone:
      return "none";
    case MatrixModelAlgorithm::kRandom:
      return "random";
    case MatrixModelAlgorithm::kDiffusion:
      return "diffusion";
    case MatrixModelAlgorithm::kRedistribution:
      return "redistribution";
    case MatrixModelAlgorithm::kIdeal:
      return "ideal";
  }
  return "?";
}

std::vector<double> balancing_transfer(MatrixModelAlgorithm algorithm, const Topology& topology,
                                       const std::vector<double>& speeds,
                                       const std::vector<double>& w, double alpha,
                                       double threshold) {
  if (static_cast<int>(w.size()) != topology.size() || speeds.size() != w.size())
    throw std::invalid_argument("model: w, speeds and topology differ in size");
  switch (algorithm) {
    case MatrixModelAlgorithm::kRandom:
      return random_transfer(topology, speeds, w, alpha, threshold);
    case MatrixModelAlgorithm::kDiffusion:
      return diffusion_transfer(topology, speeds, w, threshold);
    case MatrixModelAlgorithm::kRedistribution:
      return redistribution_transfer(speeds, w, threshold);
    case MatrixModelAlgorithm::kNone:
    case MatrixModelAlgorithm::kIdeal:
      break;
  }
  return std::vector<double>(w.size(), 0.0);
}

namespace {

// lambda - mu of section 4.1: mu_i = crossing x w_i leave P_i, equally likely to each
// neighbour: lambda = N^T mu with N the topology's rows normalised.
std::vector<double> crossings(const Topology& h, const std::vector<double>& w, double crossing) {
  const int p = h.size();
  Matrix n = zero_matrix(p);
  std::vector<double> mu(p, 0.0);
  for (int i = 0; i < p; ++i) {
    if (h.neighbours(i).empty()) continue;
    mu[i] = crossing * w[i];
    for (int j : h.neighbours(i))
      gsl_matrix_set(n.get(), i, j, 1.0 / static_cast<double>(h.neighbours(i).size()));
  }
  std::vector<double> net = transpose_times(n.get(), mu);
  for (int i = 0; i < p; ++i) net[i] -= mu[i];
  return net;
}

void check(int processors, const MatrixModelParams& q) {
  if (processors < 1) throw std::invalid_argument("model: processors must be at least 1");
  if (!q.speeds.empty() && static_cast<int>(q.speeds.size()) < processors)
    throw std::invalid_argument("model: fewer speeds than processors");
  if (q.tasks <= 0 || q.iterations < 1 || q.task_seconds <= 0)
    throw std::invalid_argument("model: tasks, iterations and task_seconds must be positive");
  if (q.crossing < 0 || q.crossing > 1 || q.alpha < 0 || q.alpha > 1 || q.threshold < 1)
    throw std::invalid_argument(
        "model: crossing and alpha must lie in [0, 1] and threshold at least 1");
}

}  // namespace

MatrixModelResult solve_matrix_model(MatrixModelAlgorithm algorithm, int processors,
                                     const MatrixModelParams& q) {
  check(processors, q);
  const Topology h(q.topology, processors);
  std::vector<double> c(processors, 1.0);
  if (!q.speeds.empty()) std::copy_n(q.speeds.begin(), processors, c.begin());
  std::vector<double> w(processors, q.tasks);
  w = global_ideal(c, w);
  for (double& x : w) x /= processors;  // w(0) = w_bar(0) summing to `tasks` (section 5.1)
  MatrixModelResult r;
  const double exchange = q.exchange_seconds * (processors - 1);
  for (int k = 0; k < q.iterations; ++k) {
    if (algorithm == MatrixModelAlgorithm::kIdeal) w = global_ideal(c, w);  // eq. 16, no cost
    const std::vector<double> moved = balancing_transfer(algorithm, h, c, w, q.alpha, q.threshold);
    double slowest = 0;
    for (int i = 0; i < processors; ++i) {
      const bool balances = std::abs(moved[i]) > 1e-12;
      const double lb = balances ? q.decide_seconds + q.move_seconds * std::abs(moved[i]) : 0.0;
      slowest = std::max(slowest, w[i] * q.task_seconds / c[i] + lb);  // eq. 15
      r.moved += std::max(0.0, moved[i]);
    }
    r.total += slowest + exchange;
    r.serial += sum(w) * q.task_seconds / c[0];  // T^(1) on P_1 (eq. 17)
    const std::vector<double> net = crossings(h, w, q.crossing);
    for (int i = 0; i < processors; ++i) w[i] += moved[i] + net[i];  // eq. 4
  }
  r.speedup = r.serial / r.total;
  r.final_tasks = w;
  return r;
}

}  // namespace lbb
