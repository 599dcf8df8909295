// Regressions for hostile or mistaken config input (issue 10): each was accepted silently,
// ran out of memory or crashed before.
#include <gtest/gtest.h>

#include "config_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/config/yaml_reader.h"
#include "harness/formats/trace_workload.h"
#include "test_support.h"
#include "workloads/workload.h"

namespace lbb {
namespace {

const char* kHead = R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)";

using testing::config_error_of;

double state_estimate(const char* workload, std::initializer_list<const char*> settings,
                      int processors) {
  const WorkloadInfo& info = *find_workload_kind(workload);
  Params given;
  for (const char* kv : settings) set_param_from_text(info.params, kv, given);
  return info.state_estimate(resolve_params(info.params, given), processors);
}

TEST(ConfigInput, DuplicatedKeyIsRefusedWhereItRepeats) {
  // steps: 12 then steps: 1000000 ran a million steps.
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution:\n  steps: 12\n  steps: 1000000\n"),
            "FILE:6:3: duplicated key 'steps' (each key may appear once in a map)");
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: a\nname: b\n"),
            "FILE:5:1: duplicated key 'name' (each key may appear once in a map)");
}

TEST(ConfigInput, SecondDocumentIsRefused) {
  const std::string e = config_error_of(std::string(kHead) + "---\nexecution: { steps: 5 }\n");
  EXPECT_EQ(e.substr(0, e.find(": ")), "FILE:4:1") << e;
  EXPECT_NE(e.find("a second YAML document"), std::string::npos) << e;
}

TEST(ConfigInput, QuotedNumberIsRefused) {
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { steps: \"12\" }\n"),
            "FILE:4:21: steps must be an integer, not the quoted string \"12\"");
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { module_detail: 'true' }\n"),
            "FILE:4:29: module_detail must be a boolean, not the quoted string \"true\"");
  // Strings may be quoted.
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { mode: \"real\" }\n"), "");
}

TEST(ConfigInput, TagsAreRefused) {
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { steps: !!str 12 }\n"),
            "FILE:4:21: unknown tag 'tag:yaml.org,2002:str': configs take no YAML tags");
  const std::string e = config_error_of(std::string(kHead) + "execution: !mine { steps: 3 }\n");
  EXPECT_NE(e.find("FILE:4:12: unknown tag '!mine'"), std::string::npos) << e;
}

TEST(ConfigInput, AliasesAreRefusedAndCannotRecurse) {
  // `&a [1, *a]` is a list that contains itself: reading it recursed until SIGSEGV.
  EXPECT_EQ(config_error_of(kHead, {"workload.sd=&a [1, *a]"}),
            "--set workload.sd=&a [1, *a]: aliases (*name) are not supported: write the value "
            "out");
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: &e { steps: 3, warmup: *e }\n"),
            "FILE:4:35: aliases (*name) are not supported: write the value out");
}

TEST(ConfigInput, DeepNestingIsRefused) {
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  const std::string e = config_error_of(kHead, {"workload.sd=" + deep});
  EXPECT_EQ(e.substr(0, 24), "--set workload.sd=[[[[[[") << e;
  EXPECT_NE(e.find("...: nested more than 32 lists or maps deep"), std::string::npos) << e;
  EXPECT_NE(config_error_of(std::string(kHead) + "execution: " + deep + "\n").find("FILE:4:"),
            std::string::npos);
}

std::string values(int n, int first = 1) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(first + i);
  return out + "]";
}

TEST(ConfigInput, SweepSizeIsBoundedBeforeExpansion) {
  // Three 1000-value sweeps (10^9 runs) ran `validate` out of memory.
  const std::string text = R"(workload: { kind: block_substitution, blocks: 4096, seed: )" +
                           values(1000) + R"( }
platform: { processors: 1, load_seed: )" +
                           values(1000) +
                           R"( }
execution: { steps: )" + values(1000) +
                           R"( }
balancers: [ { static: block } ]
)";
  EXPECT_EQ(config_error_of(text),
            "FILE:1:1: the sweeps expand to 1e+09 configurations; at most 20000 (split the "
            "sweep into several configs)");
  const std::string e = config_error_of(kHead, {"execution.steps=" + values(10001)});
  EXPECT_NE(e.find("steps: a sweep of 10001 values; at most 10000"), std::string::npos) << e;
}

TEST(ConfigInput, LongSetListIsNamedShortly) {
  // Every element of a --set list kept its own copy of the whole --set text: memory grew with
  // the square of its length. The message names the --set by its first characters only.
  const std::string e = config_error_of(kHead, {"platform.load_seed=" + values(50000, -10000)});
  EXPECT_LT(e.size(), 200u) << e.substr(0, 300);
  EXPECT_EQ(e.substr(0, 30), "--set platform.load_seed=[-100");
  EXPECT_NE(e.find("...: load_seed: a sweep of 50000 values"), std::string::npos) << e;
}

TEST(ConfigInput, ValidateBuildsEachBalancer) {
  // A dynamic balancer's own checks ran only mid-run (exit 1); now the config is refused.
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { dynamic: redistribution, partitioner: nope } ]
)"),
            "FILE:3:54: partitioner: 'nope' is not a registered static partitioner");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { dynamic: redistribution, partitioner: [lpt, nope] } ]
)"),
            "FILE:3:60: partitioner: 'nope' is not a registered static partitioner");
}

TEST(ConfigInput, GeometricPartitionerNeedsModulesWithCoordinates) {
  // rib, mj and hsfc were refused only when modules were placed; validate refuses them now.
  for (const char* name : {"rib", "mj", "hsfc"}) {
    const std::string b = std::string("balancers: [ { static: ") + name + " } ]\n";
    EXPECT_EQ(config_error_of("workload: { kind: synthetic, modules: 16 }\nplatform: { "
                              "processors: 2 }\n" +
                              b),
              std::string("FILE:3:14: synthetic: ") + name +
                  " places modules by their coordinates, and this workload's modules have none");
    for (const char* kind : {"block_substitution", "barnes_hut", "matmul", "trfd"})
      EXPECT_EQ(config_error_of(std::string("workload: { kind: ") + kind +
                                " }\nplatform: { processors: 2 }\n" + b),
                "")
          << kind << " " << name;
  }
}

TEST(ConfigInput, SetCreatesASectionTheConfigLeavesOut) {
  testing::TempDir dir;
  const Config c = load_config(dir.write("c.yaml", kHead), {"execution.steps=7"});
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_EQ(c.runs[0].steps, 7);
}

TEST(ConfigInput, StateThatCannotFitIsRefusedUpFront) {
  // Ended in a bare "FAILED: std::bad_alloc" mid-run, or the OOM killer.
  const std::string matmul = config_error_of(R"(workload: { kind: matmul, n: 1000000, r: 1000000 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)");
  EXPECT_EQ(matmul.substr(0, 30), "FILE:1:11: matmul needs about ") << matmul;
  EXPECT_NE(matmul.find("GiB for its state at these parameters, more than this machine's"),
            std::string::npos)
      << matmul;
  const std::string grid = config_error_of(R"(workload: { kind: block_substitution, blocks: 1048576,
  width: 64, mean_lines: 30 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)");
  EXPECT_NE(grid.find("block_substitution needs about"), std::string::npos) << grid;
  // Past LAPACK's int, whatever the memory.
  const std::string order =
      config_error_of(R"(workload: { kind: block_substitution, blocks: 1048576,
  width: 4096, mean_lines: 100 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)");
  EXPECT_NE(order.find("more than 2^31 - 1 unknowns"), std::string::npos) << order;
}

TEST(ConfigInput, LeadingZeroNumbersAreRefused) {
  // steps: 010 ran 8 steps (YAML 1.1 octal) while 0o14 was refused; 0x10 ran 16.
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { steps: 010 }\n"),
            "FILE:4:21: steps must be an integer, not 010: a leading zero is octal in YAML 1.1 "
            "and decimal in YAML 1.2; write the number without it");
  const char* kOwnPlatform = R"(workload: { kind: block_substitution, blocks: 16 }
balancers: [ { static: block } ]
platform: { processors: 2, load_persist_s: 00 }
)";
  EXPECT_NE(
      config_error_of(kOwnPlatform).find("FILE:3:44: load_persist_s must be a number, not 00"),
      std::string::npos)
      << config_error_of(kOwnPlatform);
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { steps: 0x10 }\n"),
            "FILE:4:21: steps must be an integer");
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { steps: 0o14 }\n"),
            "FILE:4:21: steps must be an integer");
  // Plain decimals, with a sign, and zero itself stay numbers.
  EXPECT_EQ(config_error_of(std::string(kHead) + "execution: { steps: +10, warmup: 0 }\n"), "");
}

TEST(ConfigInput, NulAndInvalidUtf8AreRefusedWhereTheyStand) {
  // "a\0b" was archived as "a"; bytes that are not UTF-8 were archived and broke readers.
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: \"a\\0b\"\n"),
            "FILE:4:7: 'a\\x00b' holds a NUL character");
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: a\xff"
                                                 "b\n"),
            "FILE:4:7: a text that is not valid UTF-8 (configs are UTF-8)");
  // An output with a NUL passed validate and failed run with a cut message.
  EXPECT_EQ(config_error_of(std::string(kHead) + "output: \"r/a\\0.h5\"\n"),
            "FILE:4:9: 'r/a\\x00.h5' holds a NUL character");
  EXPECT_EQ(config_error_of(kHead, {"output=\"a\\0b\""}),
            "--set output=\"a\\0b\": 'a\\x00b' holds a NUL character");
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: caf\xc3\xa9\n"), "");  // UTF-8 is fine
}

TEST(ConfigInput, NameIsOnePlainFileName) {
  // name: ../../escape with no output: wrote results/../../escape.h5.
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: ../../escape\n"),
            "FILE:4:7: name '../../escape' is not a plain file name (no '/', not '.' or '..'): "
            "the result set is results/<name> unless output: says otherwise");
  EXPECT_NE(config_error_of(std::string(kHead) + "name: ..\n").find("not a plain file name"),
            std::string::npos);
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: \"a\\eb\"\n"),
            "FILE:4:7: name 'a\\x1Bb' holds a control character (shown escaped, \\xNN or \\uNNNN)");
  EXPECT_EQ(config_error_of(std::string(kHead) + "name: " + std::string(201, 'n') + "\n"),
            "FILE:4:7: name is 201 bytes long; at most 200");
  testing::TempDir dir;
  EXPECT_EQ(load_config(dir.write("c.yaml", std::string(kHead) + "name: a.b-c_d\n"), {}).output,
            "results/a.b-c_d");
}

TEST(ConfigInput, BalancerLabelsAreDistinct) {
  // Two entries of one label printed two rows no reader could tell apart.
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers:
  - { static: block, label: mine }
  - { static: cyclic, label: mine }
)"),
            "FILE:5:30: a second balancers entry labelled 'mine' (the first is at FILE:4:5): give "
            "each entry its own label:");
  // Unlabelled entries are labelled by their balancers' names.
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { static: block }, { static: block } ]
)"),
            "FILE:3:33: a second balancers entry labelled 'block' (the first is at FILE:3:14): "
            "give each entry its own label:");
  EXPECT_EQ(config_error_of(R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { static: block }, { static: block, label: again } ]
)"),
            "");
  EXPECT_NE(config_error_of(R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { static: block, label: "\e[2J" } ]
)")
                .find("FILE:3:38: label '\\x1B[2J' holds a control character"),
            std::string::npos);
}

TEST(ConfigInput, TaskTreeCountsItsTasksOverEveryProcessor) {
  // 4096 processors of 2^20 tasks: 2^32 tasks (about 400 GB) passed validate.
  EXPECT_EQ(config_error_of(R"(workload: { kind: task_tree, tasks_per_processor: 1048576 }
platform: { processors: 4096 }
balancers: [ { dynamic: none } ]
)"),
            "FILE:1:11: task_tree: processors x tasks_per_processor = 4.295e+09 tasks; at most "
            "2^31 - 1");
  // 2^21 tasks peaked at 120 MB (P = 2, one step), 2^22 at 321 MB (P = 4, five steps).
  EXPECT_GE(state_estimate("task_tree", {"tasks_per_processor=1048576"}, 2), 120e6);
  EXPECT_GE(state_estimate("task_tree", {"tasks_per_processor=1048576"}, 4), 321e6);
}

TEST(ConfigInput, SyntheticCostsEstimateCoversMeasuredPeaks) {
  // Simulated runs of 2^20 modules peaked at 102, 182 and 478 MB with 1, 4 and 16 phases.
  const std::pair<const char*, double> peaks[] = {
      {"phases=1", 102e6}, {"phases=4", 182e6}, {"phases=16", 478e6}};
  for (const auto& [phases, peak] : peaks) {
    const double estimate = state_estimate("synthetic", {"modules=1048576", phases}, 2);
    EXPECT_GE(estimate, peak) << phases;
    EXPECT_LE(estimate, 1.5 * peak) << phases;
  }
}

TEST(ConfigInput, ConfigFileSizeIsBounded) {
  // `lbbench validate /dev/zero` read without end and aborted with std::bad_alloc.
  try {
    read_config_text("/dev/zero");
    FAIL() << "read /dev/zero whole";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "/dev/zero: larger than 4 MiB; a config is a short text file");
  }
}

}  // namespace
}  // namespace lbb
