// `lbbench partition`: weight parsing, the JSON result, and the exit codes of the real command.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "harness/cli/partition_command.h"

namespace lbb {
namespace {

std::vector<double> parse(const std::string& text) {
  std::istringstream in(text);
  return read_weights(in, "test");
}

std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const PartitionInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PartitionCommand, ReadsWhitespaceSeparatedWeights) {
  EXPECT_EQ(parse("2 6\t2\n\n 2 1 1\r\n2 2 2\n"), (std::vector<double>{2, 6, 2, 2, 1, 1, 2, 2, 2}));
  EXPECT_EQ(parse("0 1.5e2 .25"), (std::vector<double>{0, 150, 0.25}));
}

TEST(PartitionCommand, RefusesBadWeightsSayingWhere) {
  EXPECT_EQ(parse_error("1 2\n3 abc"), "test:2: 'abc' is not a number");
  EXPECT_EQ(parse_error("1.5x"), "test:1: '1.5x' is not a number");
  EXPECT_EQ(parse_error("1,2"), "test:1: '1,2' is not a number");
  EXPECT_EQ(parse_error("4 -1"), "test:1: '-1' is negative; weights must be >= 0");
  EXPECT_EQ(parse_error("nan"), "test:1: 'nan' is not a finite number");
  EXPECT_EQ(parse_error("inf"), "test:1: 'inf' is not a finite number");
  EXPECT_EQ(parse_error("1e400"), "test:1: '1e400' is out of range");
  EXPECT_EQ(parse_error(""), "test: no weights");
  EXPECT_EQ(parse_error(" \n\t\n"), "test: no weights");
}

const std::vector<double> kFigure3 = {2, 6, 2, 2, 1, 1, 2, 2, 2};

TEST(PartitionCommand, PaperFigure3AsJson) {
  const nlohmann::json d = run_partition({"binary_dissection", 4, {}, {}, {}}, kFigure3);
  EXPECT_EQ(d["method"], "binary_dissection");
  EXPECT_EQ(d["processors"], 4);
  EXPECT_EQ(d["bottleneck"], 8.0);
  EXPECT_EQ(d["parts"], nlohmann::json::parse("[[0,0],[1,2],[3,5],[6,8]]"));
  EXPECT_GE(d["seconds"].get<double>(), 0.0);
  // Chain cuts after modules 0, 2 and 5: 3 links, each end on another processor.
  EXPECT_EQ(d["edge_cut"], 3);
  EXPECT_EQ(d["communication_volume"], 6);
  EXPECT_EQ(d.size(), 8u);
  for (const char* exact : {"optimal_chain", "optimal_chain_bokhari"})
    EXPECT_EQ(run_partition({exact, 4, {}, {}, {}}, kFigure3)["bottleneck"], 6.0) << exact;
  EXPECT_LE(run_partition({"greedy_probe", 4, {}, {"epsilon=0.25"}, {}}, kFigure3)["bottleneck"]
                .get<double>(),
            6.25);
}

TEST(PartitionCommand, ChainPartsAreRangesOthersAreModuleLists) {
  // Empty chain parts print as [].
  const nlohmann::json chain = run_partition({"optimal_chain", 3, {}, {}, {}}, {{5.0}});
  EXPECT_EQ(chain["parts"], nlohmann::json::parse("[[0,0],[],[]]"));
  const nlohmann::json lpt = run_partition({"lpt", 2, {1, 3}, {}, {}}, {{1, 2, 3, 4}});
  EXPECT_EQ(lpt["parts"], nlohmann::json::parse("[[1],[0,2,3]]"));
  EXPECT_EQ(lpt["bottleneck"], 8.0 / 3.0);
  const nlohmann::json orb = run_partition({"orb", 2, {}, {}, {}}, kFigure3);
  EXPECT_EQ(orb["parts"], nlohmann::json::parse("[[0,1,2],[3,4,5,6,7,8]]"));
}

TEST(PartitionCommand, RefusesBadRequests) {
  auto error = [](const PartitionRequest& r) -> std::string {
    try {
      run_partition(r, kFigure3);
    } catch (const PartitionInputError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error({"optimal_chain", 0, {}, {}, {}}), "--processors must be in [1, 1048576], got 0");
  EXPECT_EQ(error({"nonesuch", 4, {}, {}, {}}), "unknown method 'nonesuch' (see lbbench list)");
  EXPECT_EQ(error({"none", 4, {}, {}, {}}), "'none' is not a static balancer");
  EXPECT_EQ(error({"optimal_chain", 4, {1, 2}, {}, {}}),
            "--speeds gives 2 speeds for 4 processors");
  EXPECT_EQ(error({"optimal_chain", 2, {1, 0}, {}, {}}), "--speeds: 0 must be >= 1e-06, got 0");
  EXPECT_EQ(error({"optimal_chain", 2, {1, std::nan("")}, {}, {}}),
            "--speeds: nan must be a finite number");
  EXPECT_NE(error({"greedy_probe", 4, {}, {"epsilon=-1"}, {}}).find("--param epsilon"),
            std::string::npos);
  EXPECT_NE(error({"optimal_chain", 4, {}, {"foo=1"}, {}}).find("unknown parameter"),
            std::string::npos);
}

// The real command: JSON on stdout and exit 0, or a message and exit 2.
int run_lbbench(const std::string& args, const std::string& stdin_text, std::string& out) {
  const char* build = std::getenv("LBB_BUILD_DIR");
  const std::filesystem::path exe = std::filesystem::path(build ? build : "build") / "lbbench";
  if (!std::filesystem::exists(exe)) ADD_FAILURE() << exe << " missing: build target lbbench";
  const std::string command =
      "printf '" + stdin_text + "' | " + exe.string() + " partition " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buf{};
  out.clear();
  while (std::fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(PartitionCommand, ProcessPrintsJsonOrExitsWithTwo) {
  std::string out;
  ASSERT_EQ(run_lbbench("--method optimal_chain --processors 4", "2 6 2 2 1 1 2 2 2\\n", out), 0)
      << out;
  const nlohmann::json d = nlohmann::json::parse(out);
  EXPECT_EQ(d["bottleneck"], 6.0);
  EXPECT_EQ(run_lbbench("--method optimal_chain --processors 4", "1 two 3", out), 2) << out;
  EXPECT_NE(out.find("'two' is not a number"), std::string::npos) << out;
  EXPECT_EQ(run_lbbench("--method optimal_chain --processors 4", "", out), 2) << out;
  EXPECT_EQ(run_lbbench("--method optimal_chain --processors 4", "1 -3", out), 2) << out;
  EXPECT_EQ(run_lbbench("--method optimal_chain --processors 0", "1 3", out), 2) << out;
  EXPECT_EQ(run_lbbench("--method lpt --processors 2 --speeds 1,x", "1 3", out), 2) << out;
}

}  // namespace
}  // namespace lbb
