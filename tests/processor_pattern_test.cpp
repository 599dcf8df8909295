// Speeds that follow the processor count (harness/config/processor_pattern.h): one config sweeps
// P with "the last processor at half speed", and a pattern that cannot fit P is refused where it
// stands.
#include <gtest/gtest.h>

#include "config_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/config/processor_pattern.h"

namespace lbb {
namespace {

using testing::config_error_of;
using V = std::vector<double>;

TEST(ProcessorPattern, SelectorsFollowTheProcessorCount) {
  EXPECT_EQ(expand_processor_pattern("last:0.5", 4, 1), (V{1, 1, 1, 0.5}));
  EXPECT_EQ(expand_processor_pattern("last:0.5", 8, 1), (V{1, 1, 1, 1, 1, 1, 1, 0.5}));
  EXPECT_EQ(expand_processor_pattern("first2:0.25", 3, 1), (V{0.25, 0.25, 1}));
  EXPECT_EQ(expand_processor_pattern("last50%:0.5", 5, 1), (V{1, 1, 0.5, 0.5, 0.5}));  // rounds up
  EXPECT_EQ(expand_processor_pattern("all:0.5,first:1", 3, 1), (V{1, 0.5, 0.5}));      // later wins
  EXPECT_EQ(expand_processor_pattern("first:0.2,last:0.4", 1, 1), (V{0.4}));
}

TEST(ProcessorPattern, MalformedOrTooManyIsRefused) {
  EXPECT_THROW(expand_processor_pattern("last5:0.5", 4, 1), std::invalid_argument);
  EXPECT_THROW(expand_processor_pattern("middle:0.5", 4, 1), std::invalid_argument);
  EXPECT_THROW(expand_processor_pattern("last:", 4, 1), std::invalid_argument);
  EXPECT_TRUE(processor_pattern_problem("last:0.5", 1e-3, 1).value_or("").empty());
  EXPECT_NE(processor_pattern_problem("last:1.5", 1e-3, 1).value_or("").find("[0.001, 1]"),
            std::string::npos);
  EXPECT_TRUE(processor_pattern_problem("last150%:0.5", 0, 1).has_value());
  EXPECT_TRUE(processor_pattern_problem(std::string(500, 'x') + ":1", 0, 1).has_value());
}

const char* kConfig = R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: [2, 4], speeds: last:0.5 }
balancers: [ { static: block } ]
)";

TEST(ProcessorPattern, ConfigSweepsProcessorsWithOneSlowLast) {
  testing::TempDir dir;
  const Config config = load_config(dir.write("c.yaml", kConfig));
  ASSERT_EQ(config.runs.size(), 2u);
  EXPECT_EQ(config.runs[0].speeds, (V{1, 0.5}));
  EXPECT_EQ(config.runs[1].speeds, (V{1, 1, 1, 0.5}));
  // The archived config holds the speeds that ran, so `compare` matches them as lists.
  EXPECT_NE(config.runs[1].resolved_yaml.find("speeds: [1, 1, 1, 0.5]"), std::string::npos)
      << config.runs[1].resolved_yaml;
  // A sweep of patterns is a sweep; --set takes one.
  const Config swept = load_config(dir.write("s.yaml", kConfig), {"platform.processors=4",
                                                                  "platform.speeds=[last:0.5, "
                                                                  "first:0.25]"});
  ASSERT_EQ(swept.runs.size(), 2u);
  EXPECT_EQ(swept.runs[1].speeds, (V{0.25, 1, 1, 1}));
  EXPECT_EQ(swept.runs[1].sweep_label, "speeds=first:0.25");
}

TEST(ProcessorPattern, ConfigErrorsPointAtThePattern) {
  EXPECT_EQ(config_error_of(kConfig, {"platform.speeds=last3:0.5"}),
            "--set platform.speeds=last3:0.5: speeds 'last3:0.5' names 3 processors of 2");
  const std::string bad = R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 4, speeds: last:2 }
balancers: [ { static: block } ]
)";
  EXPECT_EQ(config_error_of(bad), "FILE:2:36: speeds every value must lie in [0.001, 1], got 2");
  const std::string word = R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 4, speeds: slow }
balancers: [ { static: block } ]
)";
  EXPECT_EQ(config_error_of(word),
            "FILE:2:36: speeds must be a list of numbers or a pattern such as last:0.5 (`lbbench "
            "list`)");
}

}  // namespace
}  // namespace lbb
