// Franklin & Govindan 1995's matrix iterative model against small cases computed by hand.
#include <gtest/gtest.h>

#include "harness/models/matrix_iterative_model.h"

namespace lbb {
namespace {

std::vector<double> step(MatrixModelAlgorithm a, TopologyKind kind, std::vector<double> w,
                         double alpha, double threshold) {
  const Topology h(kind, static_cast<int>(w.size()));
  const std::vector<double> speeds(w.size(), 1.0);
  const std::vector<double> t = balancing_transfer(a, h, speeds, w, alpha, threshold);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] += t[i];
  return w;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "i=" << i;
}

// w = (9, 0, 3) on a chain: w_bar = 4 each; only P0 exceeds it, by 5, and sends alpha x 5 to
// its only neighbour (eq. 7).
TEST(MatrixIterativeModel, RandomSendsAlphaOfTheExcessToTheNeighbours) {
  expect_near(step(MatrixModelAlgorithm::kRandom, TopologyKind::kChain, {9, 0, 3}, 0.5, 1.0),
              {6.5, 2.5, 3});
  // The middle processor has two neighbours: in expectation alpha / 2 of its excess to each.
  expect_near(step(MatrixModelAlgorithm::kRandom, TopologyKind::kChain, {0, 9, 3}, 0.5, 1.0),
              {1.25, 6.5, 4.25});
  // A threshold of 1.5 x w_bar = 6: (9 - 6) x 0.5 leaves P0.
  expect_near(step(MatrixModelAlgorithm::kRandom, TopologyKind::kChain, {9, 0, 3}, 0.5, 1.5),
              {7.5, 1.5, 3});
}

// Local ideals (eq. 6): w~ = (4.5, 4, 1.5). P0 and P2 exceed theirs and send everything above
// it to P1, the only neighbour below (Figure 2).
TEST(MatrixIterativeModel, DiffusionSendsTheExcessOverTheLocalIdeal) {
  expect_near(step(MatrixModelAlgorithm::kDiffusion, TopologyKind::kChain, {9, 0, 3}, 0, 1.0),
              {4.5, 6, 1.5});
  // Proportional to the shortfall (eq. 9-10): on a ring of 4, w~_0 = (8 + 0 + 2) / 3; P1 is
  // 10/3 short, P3 4/3: P0 sends its excess 14/3 in the ratio 10:4. P2 (w~ = 2) sends 2 to P1,
  // the only neighbour below 2.
  expect_near(step(MatrixModelAlgorithm::kDiffusion, TopologyKind::kRing, {8, 0, 4, 2}, 0, 1.0),
              {10.0 / 3, 10.0 / 3 + 2, 2, 10.0 / 3});
}

TEST(MatrixIterativeModel, RedistributionReachesTheIdealOnceAThresholdIsCrossed) {
  expect_near(step(MatrixModelAlgorithm::kRedistribution, TopologyKind::kChain, {9, 0, 3}, 0, 1.3),
              {4, 4, 4});
  // No processor above 1.3 x w_bar = 5.2: nothing happens.
  expect_near(step(MatrixModelAlgorithm::kRedistribution, TopologyKind::kChain, {5, 4, 3}, 0, 1.3),
              {5, 4, 3});
}

// Two processors of speeds 1 and 0.5, 9 tasks: w(0) = (6, 3); 10 % cross each iteration.
// k = 0: max(6/1, 3/0.5) = 6; w(1) = (6 - 0.6 + 0.3, 3 - 0.3 + 0.6) = (5.7, 3.3): max(5.7, 6.6).
// T = 12.6, T^(1) = 2 x 9, speedup 18 / 12.6 (eq. 15-17).
TEST(MatrixIterativeModel, SpeedupOfNoBalanceByHand) {
  MatrixModelParams q;
  q.speeds = {1, 0.5};
  q.tasks = 9;
  q.iterations = 2;
  q.crossing = 0.1;
  q.task_seconds = 1;
  const MatrixModelResult r = solve_matrix_model(MatrixModelAlgorithm::kNone, 2, q);
  EXPECT_NEAR(r.total, 12.6, 1e-12);
  EXPECT_NEAR(r.serial, 18, 1e-12);
  EXPECT_NEAR(r.speedup, 18 / 12.6, 1e-12);
  expect_near(r.final_tasks, {5.7 - 0.57 + 0.33, 3.3 - 0.33 + 0.57});
  // Ideal balance keeps w_bar: 6 per iteration, speedup (1 + 0.5) / 1 (eq. 16, 18).
  EXPECT_NEAR(solve_matrix_model(MatrixModelAlgorithm::kIdeal, 2, q).speedup, 1.5, 1e-12);
}

// Redistribution by hand with costs: k = 0 balances nothing ((6, 3) is ideal); k = 1 moves
// 0.3 tasks back from P1 ((5.7, 3.3) -> (6, 3): 3.3 is above 1.0 x w_bar = 3), each side charged
// decide_seconds + 0.3 x move_seconds: max(5.7 + 1.3, 3.3 / 0.5 + 1.3) = 6.6 + 1.3.
TEST(MatrixIterativeModel, RedistributionChargesItsMoves) {
  MatrixModelParams q;
  q.speeds = {1, 0.5};
  q.tasks = 9;
  q.iterations = 2;
  q.crossing = 0.1;
  q.task_seconds = 1;
  q.threshold = 1.0;
  q.move_seconds = 1;
  q.decide_seconds = 1;
  const MatrixModelResult r = solve_matrix_model(MatrixModelAlgorithm::kRedistribution, 2, q);
  EXPECT_NEAR(r.total, 6 + 6.6 + 1.3, 1e-12);
  EXPECT_NEAR(r.moved, 0.3, 1e-12);
}

TEST(MatrixIterativeModel, BalancingBeatsNoBalanceAndStaysBelowIdeal) {
  MatrixModelParams q;
  q.speeds = {1, 1, 1, 0.5, 1, 1, 1, 0.5};
  q.crossing = 0.05;
  q.move_seconds = 1e-5;
  for (auto a : {MatrixModelAlgorithm::kRandom, MatrixModelAlgorithm::kDiffusion,
                 MatrixModelAlgorithm::kRedistribution}) {
    const double s = solve_matrix_model(a, 8, q).speedup;
    EXPECT_GT(s, solve_matrix_model(MatrixModelAlgorithm::kNone, 8, q).speedup)
        << matrix_model_algorithm_name(a);
    EXPECT_LE(s, solve_matrix_model(MatrixModelAlgorithm::kIdeal, 8, q).speedup + 1e-12);
  }
  EXPECT_THROW(parse_matrix_model_algorithm("orb"), std::invalid_argument);
  q.threshold = 0.5;
  EXPECT_THROW(solve_matrix_model(MatrixModelAlgorithm::kRandom, 8, q), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
