#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "config_test_support.h"
#include "harness/config/config_loader.h"
#include "test_support.h"

namespace lbb {
namespace {

const char* kGood = R"(name: t
workload: { kind: block_substitution, blocks: 16, width: 8, mean_lines: 2 }
platform: { processors: 4 }
execution: { steps: 3 }
balancers:
  - { static: block }
)";

using testing::config_error_of;

TEST(Config, GoodConfigExpands) {
  testing::TempDir dir;
  Config c = load_config(dir.write("c.yaml", kGood));
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_EQ(c.name, "t");
  EXPECT_EQ(c.output, "results/t");
  EXPECT_EQ(c.runs[0].processors, 4);
  EXPECT_EQ(c.runs[0].steps, 3);
  EXPECT_EQ(c.runs[0].workload_params.integer("blocks"), 16);
  EXPECT_EQ(c.runs[0].workload_params.text("distribution"), "truncated_normal");  // default
  EXPECT_EQ(c.runs[0].balancer.label, "block");
  EXPECT_NE(c.runs[0].resolved_yaml.find("distribution: truncated_normal"), std::string::npos);
}

TEST(Config, ListsAreACartesianSweep) {
  testing::TempDir dir;
  Config c = load_config(
      dir.write("c.yaml", R"(workload: { kind: block_substitution, blocks: 16, sd: [0.5, 1, 2] }
platform: { processors: [2, 4] }
balancers:
  - { static: block }
  - { static: cyclic }
  - { dynamic: none }
)"));
  EXPECT_EQ(c.runs.size(), 3u * 2u * 3u);
  EXPECT_EQ(c.runs[0].sweep_label, "sd=0.5 processors=2");
}

TEST(Config, SetOverridesAValueAndCanSweep) {
  testing::TempDir dir;
  const std::string path = dir.write("c.yaml", kGood);
  Config c = load_config(path, {"platform.processors=8", "execution.steps=[1,2]"});
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.runs[0].processors, 8);
  EXPECT_EQ(c.runs[1].steps, 2);
  Config d = load_config(path, {"balancers.0.static=cyclic"});
  EXPECT_EQ(d.runs[0].balancer.static_name, "cyclic");
}

TEST(Config, AListOfWorkloadsRunsEachWithItsOwnSweeps) {
  testing::TempDir dir;
  const std::string path = dir.write("c.yaml", R"(workload:
  - { kind: block_substitution, blocks: 16, sd: [0.5, 1] }
  - { kind: trfd, n: 10 }
platform: { processors: 2 }
balancers: [ { static: block }, { static: cyclic } ]
)");
  Config c = load_config(path);
  ASSERT_EQ(c.runs.size(), 2u * 2u + 2u);
  EXPECT_EQ(c.runs[0].workload, "block_substitution");
  EXPECT_EQ(c.runs[0].sweep_label, "sd=0.5");
  EXPECT_EQ(c.runs[4].workload, "trfd");
  EXPECT_EQ(c.runs[4].workload_params.integer("n"), 10);
  EXPECT_EQ(load_config(path, {"workload.1.n=12"}).runs[4].workload_params.integer("n"), 12);
  EXPECT_EQ(config_error_of(R"(workload: [ { kind: trfd }, { kind: trfdd } ]
platform: { processors: 2 }
balancers: [ { static: block } ]
)")
                .substr(0, 39),
            "FILE:1:37: unknown workload 'trfdd' (kn");
  EXPECT_EQ(config_error_of(
                "workload: []\nplatform: { processors: 2 }\nbalancers: [ { static: block } ]\n"),
            "FILE:1:11: workload: the list is empty");
}

TEST(Config, EveryShippedConfigLoads) {
  const char* source = std::getenv("LBB_SOURCE_DIR");
  ASSERT_NE(source, nullptr);
  int configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(source) + "/configs"))
    if (entry.path().extension() == ".yaml") {
      EXPECT_NO_THROW(load_config(entry.path().string())) << entry.path();
      ++configs;
    }
  EXPECT_GE(configs, 5);
}

TEST(Config, SyntaxErrorHasLineAndColumn) {
  EXPECT_EQ(config_error_of("workload: { kind: block_substitution\nplatform: [\n"),
            "FILE:2:9: end of map flow not found");
}

TEST(Config, UnknownTopLevelKey) {
  EXPECT_EQ(config_error_of(std::string(kGood) + "colour: red\n"),
            "FILE:7:1: unknown key 'colour' (expected: name, workload, platform, execution, "
            "balancers, output, expectations)");
}

TEST(Config, UnknownWorkloadParameter) {
  const std::string e = config_error_of(R"(workload: { kind: block_substitution, blokcs: 16 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)");
  EXPECT_EQ(e.substr(0, e.find(" (")), "FILE:1:39: unknown key 'blokcs' in workload");
}

TEST(Config, WrongType) {
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: four }
balancers: [ { static: block } ]
)"),
            "FILE:2:25: processors must be an integer");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, sd: high }
platform: { processors: 2 }
balancers: [ { static: block } ]
)"),
            "FILE:1:43: sd must be a number");
}

TEST(Config, MissingRequiredKeysPointAtTheParent) {
  EXPECT_EQ(config_error_of("platform: { processors: 2 }\nbalancers: [ { static: block } ]\n"),
            "FILE:1:1: missing required key 'workload'");
  EXPECT_EQ(config_error_of(R"(workload: { blocks: 3 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)"),
            "FILE:1:11: workload: missing required key 'kind'");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { topology: ring }
balancers: [ { static: block } ]
)"),
            "FILE:2:11: platform: missing required key 'processors'");
}

TEST(Config, OutOfRangeValues) {
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 0 }
balancers: [ { static: block } ]
)"),
            "FILE:2:25: processors must be >= 1, got 0");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: -4 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)"),
            "FILE:1:47: blocks must be >= 1, got -4");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: 8 }
platform: { processors: 16 }
balancers: [ { static: block } ]
)"),
            "FILE:2:25: processors (16) exceeds the workload's 8 modules");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 6, topology: hypercube }
balancers: [ { static: block } ]
)"),
            "FILE:2:38: a hypercube needs a power-of-two number of processors, got 6");
}

// `baseline: true` marks the entry the table's ratios divide by; the archive keeps it in the
// resolved config (where `lbbench table` finds it again).
TEST(Config, BaselineEntry) {
  testing::TempDir dir;
  const Config c = load_config(dir.write("c.yaml", R"(workload: { kind: block_substitution }
platform: { processors: 2 }
balancers:
  - { static: block }
  - { static: cyclic, baseline: true }
)"));
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_FALSE(c.runs[0].balancer.baseline);
  EXPECT_TRUE(c.runs[1].balancer.baseline);
  EXPECT_NE(c.runs[1].resolved_yaml.find("baseline: true"), std::string::npos);
  EXPECT_EQ(c.runs[0].resolved_yaml.find("baseline"), std::string::npos);
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 2 }
balancers:
  - { static: block, baseline: often }
)"),
            "FILE:4:32: baseline must be true or false");
}

TEST(Config, BalancerMistakes) {
  const std::string unknown = config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 2 }
balancers:
  - { static: blocky }
)");
  EXPECT_EQ(unknown.substr(0, unknown.find(" (")), "FILE:4:15: unknown static balancer 'blocky'");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 2 }
balancers:
  - { dynamic: block }
)"),
            "FILE:4:16: 'block' is a static balancer; write it as 'static: block'");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 2 }
balancers:
  - { label: x }
)"),
            "FILE:4:5: a balancers entry needs 'static:', 'dynamic:' or both");
  const std::string param = config_error_of(R"(workload: { kind: block_substitution }
platform: { processors: 2 }
balancers:
  - { static: block, alpha: 1 }
)");
  EXPECT_EQ(param.substr(0, param.find(" (")), "FILE:4:22: unknown parameter 'alpha' for block");
}

TEST(Config, SeveralProblemsAreAllReported) {
  const std::string e = config_error_of(R"(workload: { kind: block_substitution, sd: -1 }
platform: { processors: 0 }
balancers: [ { static: nope } ]
)");
  EXPECT_NE(e.find("FILE:1:43"), std::string::npos) << e;
  EXPECT_NE(e.find("FILE:2:25"), std::string::npos) << e;
  EXPECT_NE(e.find("FILE:3:24"), std::string::npos) << e;
}

TEST(Config, BadOverrideNamesTheOverride) {
  EXPECT_EQ(config_error_of(kGood, {"platform.processors=lots"}),
            "--set platform.processors=lots: processors must be an integer");
  EXPECT_EQ(config_error_of(kGood, {"balancers.7.static=block"}),
            "--set balancers.7.static=block: index 7 is past the list's end");
}

// execution.replay_archive is replay_set's old name: read for one release, into the new name (the
// resolved YAML has only it), with a note; both given is refused.
TEST(Config, RenamedKeyReadUnderItsOldName) {
  const std::string head = std::string(kGood).substr(0, std::string(kGood).find("execution:"));
  const std::string tail = "balancers:\n  - { static: block }\n";
  const Config old =
      load_config_text(head + "execution: { steps: 3, replay_archive: rec }\n" + tail, "c.yaml");
  ASSERT_EQ(old.runs.size(), 1u);
  EXPECT_EQ(old.runs[0].sim.replay_set, "rec");
  EXPECT_NE(old.runs[0].resolved_yaml.find("replay_set: rec"), std::string::npos);
  EXPECT_EQ(old.runs[0].resolved_yaml.find("replay_archive"), std::string::npos);
  ASSERT_EQ(old.deprecated.size(), 1u);
  EXPECT_EQ(old.deprecated[0],
            "c.yaml:4:40: execution.replay_archive is deprecated; use execution.replay_set");
  const Config now =
      load_config_text(head + "execution: { steps: 3, replay_set: rec }\n" + tail, "c.yaml");
  EXPECT_EQ(now.runs[0].sim.replay_set, "rec");
  EXPECT_TRUE(now.deprecated.empty());
  const Config set = load_config_text(head + "execution: { steps: 3 }\n" + tail, "c.yaml",
                                      {"execution.replay_archive=rec"});
  ASSERT_EQ(set.deprecated.size(), 1u);
  EXPECT_EQ(set.deprecated[0],
            "--set execution.replay_archive=rec: execution.replay_archive is "
            "deprecated; use execution.replay_set");
  EXPECT_THROW(
      load_config_text(head + "execution: { replay_archive: a, replay_set: b }\n" + tail, "c.yaml"),
      ConfigError);
}

}  // namespace
}  // namespace lbb
