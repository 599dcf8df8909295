// Regressions for sizes and magnitudes the commands accepted and then computed wrong, wrapped
// or could not allocate (issue 10).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "harness/analysis/balance_report.h"
#include "harness/cli/partition_command.h"
#include "kernels/block_substitution.h"

namespace lbb {
namespace {

const std::vector<double> kWeights = {2, 6, 2, 2, 1, 1, 2, 2, 2};

std::string partition_error(const PartitionRequest& r, const std::vector<double>& weights) {
  try {
    run_partition(r, weights);
  } catch (const PartitionInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CliOverflow, PartitionRefusesHugeProcessorCounts) {
  // --processors 100000000 allocated per-processor vectors until std::bad_alloc (exit 134).
  EXPECT_EQ(partition_error({"block", 100000000, {}, {}, {}}, kWeights),
            "--processors must be in [1, 1048576], got 100000000");
  EXPECT_NE(partition_error({"block", (1 << 20) + 1, {}, {}, {}}, kWeights), "no error");
  EXPECT_EQ(run_partition({"block", 4096, {}, {}, {}}, kWeights)["parts"].size(), 4096u);
}

TEST(CliOverflow, PartitionWeightsNearDblMax) {
  // The bottleneck summed to inf and printed as null.
  EXPECT_EQ(
      partition_error({"optimal_chain", 2, {}, {}, {}}, {DBL_MAX / 2, DBL_MAX / 2, DBL_MAX / 2}),
      "the weights' total over the slowest speed exceeds a double's range; scale the "
      "weights down");
  EXPECT_NE(partition_error({"lpt", 2, {1e-3, 1}, {}, {}}, {1e306, 1e306}), "no error");
  const nlohmann::json ok =
      run_partition({"optimal_chain", 2, {}, {}, {}}, std::vector<double>{DBL_MAX / 4, 1.0});
  ASSERT_TRUE(ok["bottleneck"].is_number()) << ok.dump();
  EXPECT_EQ(ok["bottleneck"].get<double>(), DBL_MAX / 4);
}

TEST(CliOverflow, BalanceRefusesLoadsWhoseTotalOverflows) {
  // Equal loads near 2^62 overflowed the 64-bit total: imbalance 1.3e19 instead of 0.
  BalanceRequest r{"multilevel", "chain", "4611686018427387904,4611686018427387904", "", {}, 0, ""};
  try {
    balance_report(r);
    FAIL() << "accepted loads summing past 2^63";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--loads: the units add up to more than 2^53");
  }
  r.loads = "4503599627370496,4503599627370496";  // 2^52 each: the largest equal pair accepted
  EXPECT_EQ(balance_report(r)["imbalance"].get<double>(), 0.0);
}

TEST(CliOverflow, BlockOrderPastIntIsRefused) {
  // int n = lines * width wrapped to a negative order at sizes the config allowed.
  EXPECT_EQ(kernels::band_order(1000, 64), 64000);
  EXPECT_THROW(kernels::band_order(1 << 20, 4096), std::invalid_argument);
  EXPECT_THROW(kernels::band_order(524288, 4096), std::invalid_argument);  // exactly 2^31
  EXPECT_EQ(kernels::band_order(524287, 4096), 524287 * 4096);
}

}  // namespace
}  // namespace lbb
