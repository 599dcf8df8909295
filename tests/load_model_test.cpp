// The load models (harness/base/load_model.h) on a known cost series, each prediction computed
// by hand: module 0 costs 1, 2, 4, 3, 5 over five steps, module 1 costs 10 every step.
#include <gtest/gtest.h>

#include <vector>

#include "harness/base/load_model.h"

namespace lbb {
namespace {

// The model's prediction of each module after each of the series' steps.
std::vector<std::vector<double>> predictions(LoadModelKind kind, int window) {
  const std::vector<double> series = {1, 2, 4, 3, 5};
  LoadModel model({kind, window}, 2);
  std::vector<std::vector<double>> out;
  for (double c : series) {
    const std::vector<double> cost = {c, 10};
    const auto p = model.observe(cost);
    out.emplace_back(p.begin(), p.end());
  }
  return out;
}

std::vector<double> module0(const std::vector<std::vector<double>>& p) {
  std::vector<double> out;
  for (const auto& step : p) out.push_back(step[0]);
  return out;
}

TEST(LoadModel, LastIsTheLastStepsCosts) {
  EXPECT_EQ(module0(predictions(LoadModelKind::kLast, 4)), (std::vector<double>{1, 2, 4, 3, 5}));
}

// Medians of {1}, {1,2}, {1,2,4}, {1,2,3,4}, then the last four {2,3,4,5}: 1, 1.5, 2, 2.5, 3.5.
TEST(LoadModel, PersistenceIsTheMedianOfTheWindow) {
  EXPECT_EQ(module0(predictions(LoadModelKind::kPersistence, 4)),
            (std::vector<double>{1, 1.5, 2, 2.5, 3.5}));
  // Window 3: {1}, {1,2}, {1,2,4}, {2,4,3}, {4,3,5}.
  EXPECT_EQ(module0(predictions(LoadModelKind::kPersistence, 3)),
            (std::vector<double>{1, 1.5, 2, 3, 4}));
}

// Means: 1, 3/2, 7/3, 10/4, then (2+4+3+5)/4 = 3.5; window 2: 1, 1.5, 3, 3.5, 4.
TEST(LoadModel, MovingAverageIsTheMeanOfTheWindow) {
  const auto four = module0(predictions(LoadModelKind::kMovingAverage, 4));
  const std::vector<double> want = {1, 1.5, 7.0 / 3, 2.5, 3.5};
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_DOUBLE_EQ(four[k], want[k]) << k;
  EXPECT_EQ(module0(predictions(LoadModelKind::kMovingAverage, 2)),
            (std::vector<double>{1, 1.5, 3, 3.5, 4}));
}

// Least squares through (0, y0) .. (n-1, y_{n-1}), read at n. One point: itself. (1, 2): 3.
// (1, 2, 4): slope 1.5, mean 7/3 at x = 1, so 7/3 + 1.5 x 2 = 16/3. (1, 2, 4, 3): slope 0.8, mean
// 2.5 at 1.5: 2.5 + 0.8 x 2.5 = 4.5. The last four (2, 4, 3, 5): slope 4/5, 3.5 + 0.8 x 2.5 = 5.5.
TEST(LoadModel, LinearExtrapolatesTheLeastSquaresTrendOneStep) {
  const auto p = module0(predictions(LoadModelKind::kLinear, 4));
  const std::vector<double> want = {1, 3, 16.0 / 3, 4.5, 5.5};
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(p[k], want[k], 1e-12) << k;
}

// A falling trend stops at zero: 5 then 2 extrapolates to -1.
TEST(LoadModel, LinearNeverPredictsANegativeCost) {
  LoadModel model({LoadModelKind::kLinear, 4}, 1);
  model.observe(std::vector<double>{5});
  EXPECT_EQ(model.observe(std::vector<double>{2})[0], 0.0);
}

TEST(LoadModel, EveryModelKeepsAConstantCost) {
  for (LoadModelKind kind : {LoadModelKind::kLast, LoadModelKind::kPersistence,
                             LoadModelKind::kMovingAverage, LoadModelKind::kLinear})
    for (const auto& step : predictions(kind, 3)) EXPECT_DOUBLE_EQ(step[1], 10);
}

TEST(LoadModel, NamesRoundTrip) {
  for (const std::string& name : load_model_names())
    EXPECT_EQ(load_model_name(parse_load_model(name)), name);
  EXPECT_THROW(parse_load_model("median"), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
