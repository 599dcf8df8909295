// Franklin & Govindan 1995's model against measured speedups: the calibration from the
// no-balance run on one processor, the ideal bound, and which runs are compared.
#include "harness/papers/matrix_model_comparison.h"

#include <gtest/gtest.h>

#include "harness/config/expectations.h"
#include "harness/papers/expectation_verdicts.h"

namespace lbb {
namespace {

RunRecord run(const std::string& dynamic, int processors, double makespan, double ideal) {
  RunRecord r;
  r.status = "complete";
  r.dynamic = dynamic;
  r.balancer = dynamic.empty() ? "none" : dynamic;
  r.topology = "complete";
  r.processors = processors;
  r.steps = 10;
  r.modules = 100;
  r.makespan_total = makespan;
  r.ideal_total = ideal;
  r.balance_total = 0;
  return r;
}

// One processor: 1 s of modules (1 ms a module and step) and 0.5 s of serial work. Four
// processors, perfectly balanced: (1 + 0.5) / (0.25 + 0.5) = 2, as measured.
TEST(MatrixModelComparison, CalibratedFromOneProcessorIncludingSerialWork) {
  const std::vector<RunRecord> runs = {run("", 1, 1.5, 1.0), run("", 4, 0.75, 0.25),
                                       run("gcdlb", 4, 0.6, 0.25)};
  const std::vector<ModelSpeedup> rows = compare_matrix_model(runs);
  ASSERT_EQ(rows.size(), 4u);  // none and ideal at 1 and 4; gcdlb is not in the model
  for (const ModelSpeedup& r : rows) {
    EXPECT_NE(r.balancer, "gcdlb");
    const double expected = r.processors == 1 ? 1.0 : 2.0;
    EXPECT_NEAR(r.model, expected, 1e-9) << r.balancer << " " << r.processors;
    EXPECT_NEAR(r.measured, expected, 1e-9) << r.balancer << " " << r.processors;
  }
  EXPECT_NEAR(largest_model_error(rows), 0.0, 1e-9);
}

TEST(MatrixModelComparison, ErrorIsRelativeToTheMeasuredSpeedup) {
  // Measured 1.5 / 1.0 = 1.5 at four processors; the model still says 2: +33 %.
  const std::vector<ModelSpeedup> rows =
      compare_matrix_model({run("", 1, 1.5, 1.0), run("", 4, 1.0, 0.25)});
  double none4 = 0;
  for (const ModelSpeedup& r : rows)
    if (r.balancer == "none" && r.processors == 4) none4 = r.error();
  EXPECT_NEAR(none4, 2.0 / 1.5 - 1, 1e-9);
  // As an expectation row: the largest error, beyond the paper's 20 %.
  Expectation e;
  e.row = "model";
  e.metric = "matrix_model_error";
  e.paper = 0.2;
  e.bound = "upper";
  const std::vector<Expectation> expected = {e};
  const std::vector<ExpectationResult> judged =
      judge_expectations(expected, {run("", 1, 1.5, 1.0), run("", 4, 1.0, 0.25)});
  ASSERT_TRUE(judged[0].measured);
  EXPECT_NEAR(*judged[0].measured, 2.0 / 1.5 - 1, 1e-9);
  EXPECT_EQ(judged[0].kind, VerdictKind::kDiffers);
}

TEST(MatrixModelComparison, NothingWithoutTheOneProcessorBaseline) {
  EXPECT_TRUE(compare_matrix_model({run("", 4, 0.75, 0.25), run("random", 4, 0.7, 0.25)}).empty());
}

}  // namespace
}  // namespace lbb
