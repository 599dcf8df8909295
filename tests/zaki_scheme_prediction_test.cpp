// Zaki, Li & Parthasarathy 1997's customized choice: predicted totals computed by hand.
#include <gtest/gtest.h>

#include "balancers/in_step/zaki_scheme_prediction.h"

namespace lbb {
namespace {

// Four processors of rate 1 holding 4, 2, 2, 2 seconds of ten 1-second modules.
SchemeProfile skewed() {
  SchemeProfile q;
  q.work = {4, 2, 2, 2};
  q.rate = {1, 1, 1, 1};
  q.largest_module = 1;
  q.modules = 10;
  return q;
}

SchemeSettings settings(double latency) {
  SchemeSettings s;
  s.group_size = 2;
  s.network.latency = latency;
  s.network.bandwidth = 1e12;
  return s;
}

TEST(ZakiSchemePrediction, FreeSynchronisationFavoursGlobalSchemes) {
  const SchemeProfile q = skewed();
  EXPECT_DOUBLE_EQ(predict_static_total(q, 3), 12);
  // Global: the fastest finishes at 2, P0 has 2 left, spread over rate 4: 2.5 a step.
  EXPECT_DOUBLE_EQ(predict_scheme_total(ProfiledScheme::kGCDLB, q, 3, settings(0)), 7.5);
  EXPECT_DOUBLE_EQ(predict_scheme_total(ProfiledScheme::kGDDLB, q, 3, settings(0)), 7.5);
  // Local (K = 2): group {0, 1} spreads P0's 2 over rate 2: 3 a step, and keeps 6 s on 2.
  EXPECT_DOUBLE_EQ(predict_scheme_total(ProfiledScheme::kLCDLB, q, 3, settings(0)), 9);
}

// L = 0.1 s a message. GCDLB: synchronisation (4 + 4) L = 0.8, one instruction and one data
// message 0.2: 2 + 1.0 + 0.5 first, then 2.5 + 0.8. GDDLB: (4 + 16) L = 2.0 and one data message:
// 2 + 2.1 + 0.5, then 2.5 + 2.0. LCDLB: group {0, 1} (2 + 2) L = 0.4 and 0.2: 2 + 0.6 + 1 first,
// then 3 + 0.4; group {2, 3} never moves.
TEST(ZakiSchemePrediction, MessageCostsOfTheCostModelAreCharged) {
  const SchemeProfile q = skewed();
  EXPECT_NEAR(predict_scheme_total(ProfiledScheme::kGCDLB, q, 3, settings(0.1)), 3.5 + 2 * 3.3,
              1e-9);
  EXPECT_NEAR(predict_scheme_total(ProfiledScheme::kGDDLB, q, 3, settings(0.1)), 4.6 + 2 * 4.5,
              1e-9);
  EXPECT_NEAR(predict_scheme_total(ProfiledScheme::kLCDLB, q, 3, settings(0.1)), 3.6 + 2 * 3.4,
              1e-9);
}

// A balanced profile: nothing moves, every scheme pays its synchronisation every step, and the
// profitability rule refuses a move worth less than 10 %.
TEST(ZakiSchemePrediction, BalancedWorkOnlyPaysSynchronisation) {
  SchemeProfile q = skewed();
  q.work = {2.1, 2, 2, 2};
  q.modules = 8;
  EXPECT_NEAR(predict_scheme_total(ProfiledScheme::kLDDLB, q, 2, settings(0.01)),
              2 * (2.1 + (2 + 4) * 0.01), 1e-9);
  EXPECT_NEAR(predict_static_total(q, 2), 4.2, 1e-12);
  q.rate = {0, 1, 1, 1};
  EXPECT_THROW(predict_static_total(q, 2), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
