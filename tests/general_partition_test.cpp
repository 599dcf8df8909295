// The partitioners for modules that are not a chain: lpt (Graham 1969) and orb (orthogonal
// recursive bisection), against exhaustive optima, their known bounds and their geometry.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "balancers/partition/binary_dissection.h"
#include "balancers/partition/lpt.h"
#include "balancers/partition/orb.h"
#include "tests/brute_force_partition.h"

namespace lbb {
namespace {

using testing::brute_force_any;

std::vector<double> random_weights(std::mt19937_64& rng, int m, bool integer) {
  std::vector<double> w(m);
  for (auto& x : w)
    x = integer ? std::uniform_int_distribution<int>(0, 9)(rng)
                : std::exp(std::normal_distribution<double>(0, 1)(rng));
  return w;
}

std::vector<double> random_speeds(std::mt19937_64& rng, int p, bool equal) {
  std::vector<double> s(p, 1.0);
  if (!equal)
    for (auto& x : s) x = std::uniform_real_distribution<double>(0.25, 4.0)(rng);
  return s;
}

TEST(Lpt, NeverBeatsTheOptimumAndKeepsGrahamsBound) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 1500; ++trial) {
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const int p = std::uniform_int_distribution<int>(1, 3)(rng);
    const bool equal = trial % 2 == 0;
    const auto w = random_weights(rng, m, trial % 3 == 0);
    const auto s = random_speeds(rng, p, equal);
    const Owners owner = lpt_partition(w, s);
    ASSERT_FALSE(assignment_error(owner, m, p).has_value());
    const double best = brute_force_any(w, s);
    const double got = bottleneck(owner, w, s);
    EXPECT_GE(got, best * (1 - 1e-12));
    // Graham 1969 for equal speeds; Gonzalez, Ibarra & Sahni 1977 (< 2) for unequal ones.
    const double factor = equal ? 4.0 / 3.0 - 1.0 / (3.0 * p) : 2.0;
    EXPECT_LE(got, factor * best * (1 + 1e-12)) << "trial " << trial;
  }
}

TEST(Lpt, LargestFirstOntoTheEarliestFinish) {
  // 7 5 4 3 on two equal processors: 7 | 5, then 4 -> second (5), 3 -> first (7): 10 | 9.
  const std::vector<double> w = {3, 7, 4, 5};
  EXPECT_EQ(lpt_partition(w, std::vector<double>{1, 1}), (Owners{0, 0, 1, 1}));
  // A processor twice as fast takes the largest module and as much again.
  const std::vector<double> s = {1, 2};
  const Owners owner = lpt_partition(std::vector<double>{4, 4, 4}, s);
  EXPECT_EQ(processor_loads(owner, std::vector<double>{4, 4, 4}, s), (std::vector<double>{4, 4}));
}

TEST(Orb, NeverBeatsTheOptimumAndKeepsTheDissectionBound) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 1500; ++trial) {
    const int m = std::uniform_int_distribution<int>(1, 8)(rng);
    const int p = std::uniform_int_distribution<int>(1, 3)(rng);
    const auto w = random_weights(rng, m, trial % 3 == 0);
    const auto s = random_speeds(rng, p, trial % 2 == 0);
    std::vector<double> coords(2 * m);
    for (auto& x : coords) x = std::uniform_real_distribution<double>(-1, 1)(rng);
    const Owners owner = orb_partition(w, s, coords, 2);
    ASSERT_FALSE(assignment_error(owner, m, p).has_value());
    EXPECT_GE(bottleneck(owner, w, s), brute_force_any(w, s) * (1 - 1e-12));
  }
  // Each cut is binary dissection's along a sorted axis, so section 4's bound holds too.
  for (int trial = 0; trial < 500; ++trial) {
    const int m = std::uniform_int_distribution<int>(1, 300)(rng);
    const int p = std::uniform_int_distribution<int>(1, 40)(rng);
    const int dims = 1 + trial % 3;
    const auto w = random_weights(rng, m, false);
    std::vector<double> coords(dims * m);
    for (auto& x : coords) x = std::normal_distribution<double>(0, 1)(rng);
    const Owners owner = orb_partition(w, std::vector<double>(p, 1.0), coords, dims);
    ASSERT_FALSE(assignment_error(owner, m, p).has_value());
    double total = 0;
    double largest = 0;
    for (double x : w) {
      total += x;
      largest = std::max(largest, x);
    }
    EXPECT_LE(bottleneck(owner, w, std::vector<double>(p, 1.0)),
              (total / p + largest * (p - 1) / p) * (1 + 1e-12));
  }
}

TEST(Orb, TwoProcessorsAreSeparatedByAPlaneAcrossTheLongestSide) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    const int m = std::uniform_int_distribution<int>(2, 500)(rng);
    const auto w = random_weights(rng, m, trial % 2 == 0);
    std::vector<double> coords(2 * m);
    // Stretched along y on even trials, along x on odd ones.
    const int axis = trial % 2 == 0 ? 1 : 0;
    for (int i = 0; i < m; ++i) {
      coords[2 * i] = std::uniform_real_distribution<double>(0, axis == 0 ? 10 : 1)(rng);
      coords[2 * i + 1] = std::uniform_real_distribution<double>(0, axis == 1 ? 10 : 1)(rng);
    }
    const Owners owner = orb_partition(w, std::vector<double>{1, 1}, coords, 2);
    double left_max = -1e300;
    double right_min = 1e300;
    for (int i = 0; i < m; ++i) {
      const double x = coords[2 * i + axis];
      if (owner[i] == 0)
        left_max = std::max(left_max, x);
      else
        right_min = std::min(right_min, x);
    }
    EXPECT_LE(left_max, right_min) << "trial " << trial;
  }
}

TEST(Orb, WithoutCoordinatesCutsTheChainLikeBinaryDissection) {
  std::mt19937_64 rng(14);
  for (int trial = 0; trial < 500; ++trial) {
    const int m = std::uniform_int_distribution<int>(0, 200)(rng);
    const int p = std::uniform_int_distribution<int>(1, 33)(rng);
    const auto w = random_weights(rng, m, true);  // integers: both sum exactly
    const auto s = random_speeds(rng, p, trial % 2 == 0);
    EXPECT_EQ(orb_partition(w, s, {}, 0), chain_owners(binary_dissection(w, s)))
        << "trial " << trial;
  }
}

TEST(GeneralPartition, RefusesBadInput) {
  const std::vector<double> w = {1, 2, 3};
  const std::vector<double> s = {1, 1};
  const std::vector<double> negative = {1, -1, 3};
  EXPECT_THROW(lpt_partition(negative, s), std::invalid_argument);
  EXPECT_THROW(lpt_partition(w, {}), std::invalid_argument);
  EXPECT_THROW(orb_partition(negative, s, {}, 0), std::invalid_argument);
  const std::vector<double> five_coords = {0, 1, 2, 3, 4};
  EXPECT_THROW(orb_partition(w, s, five_coords, 2), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
