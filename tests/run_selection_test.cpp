#include <gtest/gtest.h>

#include <set>

#include "harness/run/run_selection.h"

namespace lbb {
namespace {

std::vector<RunSpec> specs(int n, int repetitions) {
  std::vector<RunSpec> out(n);
  for (int i = 0; i < n; ++i) {
    out[i].resolved_yaml = "spec " + std::to_string(i);
    out[i].repetitions = repetitions;
  }
  return out;
}

TEST(RunSelection, SlicesAreDisjointAndTogetherThePlan) {
  const auto s = specs(5, 3);
  const auto plan = plan_runs(s);
  ASSERT_EQ(plan.size(), 15u);
  for (int n : {1, 2, 4, 7, 20}) {
    std::multiset<std::pair<const RunSpec*, int>> seen;
    for (int i = 0; i < n; ++i)
      for (const auto& r : slice_of(plan, parse_slice(std::to_string(i) + "/" + std::to_string(n))))
        seen.insert({r.spec, r.repetition});
    EXPECT_EQ(seen.size(), plan.size());
    for (const auto& r : plan) EXPECT_EQ(seen.count({r.spec, r.repetition}), 1u);
  }
}

TEST(RunSelection, BadSlicesAreRefused) {
  for (const char* bad : {"", "1", "2/2", "-1/2", "0/0", "a/b", "0/2x", "1/2/3"})
    EXPECT_THROW(parse_slice(bad), std::invalid_argument) << bad;
  EXPECT_EQ(parse_slice("3/8").index, 3);
}

TEST(RunSelection, ResumeRunsOnlyWhatIsMissingOrPartial) {
  const auto s = specs(2, 2);
  const auto plan = plan_runs(s);  // (0,0) (1,0) (0,1) (1,1)
  auto archived = [](const std::string& yaml, int rep, const std::string& status) {
    RunRecord r;
    r.config_yaml = yaml;
    r.status = status;
    r.repetition = rep;
    return r;
  };
  const auto left =
      missing_from(plan, {archived("spec 0", 0, "complete"), archived("spec 1", 0, "partial"),
                          archived("spec 1", 1, "failed")});
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0].spec, &s[1]);
  EXPECT_EQ(left[0].repetition, 0);
  EXPECT_EQ(left[1].spec, &s[0]);
  EXPECT_EQ(left[1].repetition, 1);
}

}  // namespace
}  // namespace lbb
