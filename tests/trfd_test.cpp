#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/trfd.h"
#include "tests/serial_driver.h"
#include "workloads/trfd.h"

namespace lbb {
namespace {

using kernels::pair_count;
using kernels::pair_index;
using testing::make_workload;
using testing::run_serially;

TEST(TrfdKernel, PairsArePackedRowByRow) {
  EXPECT_EQ(pair_count(4), 10u);
  EXPECT_EQ(pair_index(0, 0), 0u);
  EXPECT_EQ(pair_index(1, 0), 1u);
  EXPECT_EQ(pair_index(1, 1), 2u);
  EXPECT_EQ(pair_index(3, 3), 9u);
}

TEST(TrfdKernel, OrthogonalizeGivesAnOrthogonalMatrix) {
  const int n = 7;
  std::vector<double> c(n * n);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : c) v = u(rng);
  kernels::orthogonalize(n, c);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double dot = 0;
      for (int k = 0; k < n; ++k) dot += c[i * n + k] * c[j * n + k];
      EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, 1e-13);
    }
}

// The two half-transformations against the four-index definition, on a small array.
TEST(TrfdKernel, HalfTransformationsMatchTheDefinition) {
  const int n = 5;
  const std::size_t np = pair_count(n);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(np * np), c(n * n);
  for (std::size_t ij = 0; ij < np; ++ij)
    for (std::size_t kl = 0; kl <= ij; ++kl) a[ij * np + kl] = a[kl * np + ij] = u(rng);
  for (double& v : c) v = u(rng);  // any C: the loops do not rely on orthogonality
  auto at = [&](int i, int j, int k, int l) {
    const std::size_t ij = i >= j ? pair_index(i, j) : pair_index(j, i);
    const std::size_t kl = k >= l ? pair_index(k, l) : pair_index(l, k);
    return a[ij * np + kl];
  };
  std::vector<double> half = a, work(n * n), out(np);
  for (std::size_t ij = 0; ij < np; ++ij)
    kernels::first_half_transform(n, c, std::span(half).subspan(ij * np, np), work);
  std::vector<double> plain(np * np);
  kernels::plain_transform(n, c, a, plain);
  for (int r = 0; r < n; ++r)
    for (int s = 0; s <= r; ++s) {
      std::vector<double> column(np);
      const std::size_t rs = pair_index(r, s);
      for (std::size_t ij = 0; ij < np; ++ij) column[ij] = half[ij * np + rs];
      kernels::second_half_transform(n, r, s, c, column, out, work);
      for (int p = 0; p <= r; ++p)
        for (int q = 0; q <= (p < r ? p : s); ++q) {
          double want = 0;
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
              for (int k = 0; k < n; ++k)
                for (int l = 0; l < n; ++l)
                  want +=
                      c[i * n + p] * c[j * n + q] * c[k * n + r] * c[l * n + s] * at(i, j, k, l);
          EXPECT_NEAR(out[pair_index(p, q)], want, 1e-12);
          EXPECT_NEAR(plain[rs * np + pair_index(p, q)], want, 1e-12);
          EXPECT_NEAR(plain[pair_index(p, q) * np + rs], want, 1e-12);
        }
    }
}

std::unique_ptr<Workload> small_trfd() {
  return make_workload("trfd", {"n=12", "iterations_per_module=2"});
}

TEST(TrfdWorkload, TwoPhasesWithTheirOwnRisingCosts) {
  auto w = small_trfd();
  EXPECT_EQ(w->phases(), 2);
  EXPECT_EQ(w->module_count(), 6);
  const auto w0 = w->predicted_phase_weights(0), w1 = w->predicted_phase_weights(1);
  for (int m = 1; m < 6; ++m) {
    EXPECT_GT(w0[m], w0[m - 1]);
    EXPECT_GT(w1[m], w1[m - 1]);
  }
  // The second loop's triangular innermost bound makes it the more skewed one.
  EXPECT_GT(w1[5] / w1[0], w0[5] / w0[0]);
  const auto total = w->predicted_weights();
  EXPECT_DOUBLE_EQ(total[3], w0[3] + w1[3]);
  // Module 1 holds orbitals 2 and 3: pairs 3 .. 9, full rows of 78 doubles.
  EXPECT_EQ(w->state_bytes(1), 32 + 8u * 7 * 78);
}

TEST(TrfdWorkload, SerialRunVerifies) {
  auto w = small_trfd();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 4);
  const Verification v = w->verify(states, 4);
  EXPECT_TRUE(v.passed) << v.detail;
  EXPECT_LT(v.error, 1e-13);
}

TEST(TrfdWorkload, PhasesOutOfOrderAreRefused) {
  auto w = small_trfd();
  VectorModuleStates states(*w);
  EXPECT_THROW(w->run_module(0, 0, 1, states.state(0)), std::runtime_error);
  w->run_module(0, 0, 0, states.state(0));
  EXPECT_THROW(w->run_module(0, 0, 0, states.state(0)), std::runtime_error);
}

TEST(TrfdWorkload, CorruptedModuleIsCaught) {
  auto w = small_trfd();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 2);
  double* rows = reinterpret_cast<double*>(states.state(2).data() + 32);
  rows[3] += 1e-9;  // (pq|rs) with rs = 10, pq = 3: in the lower triangle
  const Verification v = w->verify(states, 2);
  EXPECT_FALSE(v.passed) << v.detail;
}

TEST(TrfdWorkload, CorruptionInTheMiddleOfTheRunIsCaught) {
  auto w = small_trfd();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 1);
  reinterpret_cast<double*>(states.state(4).data() + 32)[0] *= 1.01;
  run_serially(*w, states, 1, 2);
  EXPECT_FALSE(w->verify(states, 3).passed);
}

TEST(TrfdWorkload, WrongStepCountIsCaught) {
  auto w = small_trfd();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 2);
  EXPECT_FALSE(w->verify(states, 3).passed);
}

}  // namespace
}  // namespace lbb
