// `lbbench schedule`: a loop schedule's chunk sequence on modelled processors, as JSON, and its
// refusals of bad requests; then the real command's output and exit codes.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "harness/cli/partition_command.h"
#include "harness/cli/schedule_command.h"

namespace lbb {
namespace {

std::vector<int> counts(const nlohmann::json& report) {
  std::vector<int> out;
  for (const auto& c : report["chunks"]) out.push_back(c["count"]);
  return out;
}

// Polychronopoulos & Kuck 1987, N = 100, P = 4 (as tests/loop_schedules_test.cpp): ceil(R / 4).
// With 1 s iterations the first four chunks end at 25, 19, 14 and 11 s, so processor 3 asks first
// again and takes the fifth; the chunks cover the loop once, in order.
TEST(ScheduleCommand, GuidedChunksGoToTheProcessorIdleFirst) {
  const nlohmann::json r = run_schedule({"gss", 100, 4, {}, {}}, {});
  EXPECT_EQ(counts(r), (std::vector<int>{25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1}));
  EXPECT_EQ(r["chunks"][4]["processor"], 3);
  EXPECT_EQ(r["chunks"][4]["start"], 11.0);
  int next = 0;
  for (const auto& c : r["chunks"]) {
    EXPECT_EQ(c["first"], next);
    next += c["count"].get<int>();
  }
  EXPECT_EQ(next, 100);
  std::int64_t sum = 0;
  for (const auto& p : r["per_processor"]) sum += p["iterations"].get<std::int64_t>();
  EXPECT_EQ(sum, 100);
  EXPECT_EQ(r["params"]["min_chunk"], 1);
}

// Flynn Hummel et al. 1996: speeds 0.75 and 0.25 weigh FAC2's chunks by 1.5 and 0.5; a slow
// processor's chunk ends later by 1 / speed.
TEST(ScheduleCommand, SpeedsWeighChunksAndTheirTimes) {
  const nlohmann::json r = run_schedule({"wf", 160, 2, {0.75, 0.25}, {}}, {});
  EXPECT_EQ(r["chunks"][0]["count"], 60);
  EXPECT_EQ(r["chunks"][1]["count"], 20);
  EXPECT_DOUBLE_EQ(r["chunks"][1]["end"].get<double>(), 80.0);  // 20 iterations at speed 0.25
  EXPECT_DOUBLE_EQ(r["chunks"][0]["end"].get<double>(), 80.0);  // 60 at 0.75
}

// Iteration times from a file: omp_static's blocks of 3, 3 and 2 of them.
TEST(ScheduleCommand, IterationTimesSetTheClock) {
  const std::vector<double> times{1, 2, 3, 4, 5, 6, 7, 8};
  const nlohmann::json r = run_schedule({"omp_static", 0, 3, {}, {}}, times);
  EXPECT_EQ(counts(r), (std::vector<int>{3, 3, 2}));
  EXPECT_DOUBLE_EQ(r["makespan"].get<double>(), 15.0);
  EXPECT_EQ(r["iterations"], 8);
}

std::string refusal(const ScheduleRequest& request, std::vector<double> times = {}) {
  try {
    run_schedule(request, times);
  } catch (const PartitionInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ScheduleCommand, RefusesBadRequestsSayingWhy) {
  EXPECT_NE(refusal({"lpt", 10, 2, {}, {}}).find("unknown schedule 'lpt'"), std::string::npos);
  EXPECT_NE(refusal({"omp_runtime", 10, 2, {}, {}}).find("OMP_SCHEDULE"), std::string::npos);
  EXPECT_NE(refusal({"gss", 10, 0, {}, {}}).find("--processors"), std::string::npos);
  EXPECT_NE(refusal({"gss", 10, 2, {1}, {}}).find("1 speeds for 2"), std::string::npos);
  EXPECT_NE(refusal({"gss", 10, 2, {1, 0}, {}}).find("--speeds"), std::string::npos);
  EXPECT_NE(refusal({"gss", -5, 2, {}, {}}).find("--iterations must be >= 1"), std::string::npos);
  EXPECT_NE(refusal({"gss", 0, 2, {}, {}}).find("--iterations"), std::string::npos);
  EXPECT_NE(refusal({"gss", 3, 2, {}, {}}, {1, 2}).find("the file gives 2"), std::string::npos);
  EXPECT_NE(refusal({"gss", 10, 2, {}, {"min_chunk=x"}}).find("--param"), std::string::npos);
  EXPECT_NE(refusal({"gss", 10, 2, {}, {"nope=1"}}).find("--param"), std::string::npos);
  EXPECT_NE(refusal({"ss", std::int64_t{1} << 40, 2, {}, {}}).find("memory"), std::string::npos);
}

// The schedules added from LB4OMP's portfolio, through the command: their chunk sequences by hand
// as in tests/loop_schedules_test.cpp (1 s iterations on equal processors hand them out in the
// calculator's order), rnd's in its range and the same again for its seed.
TEST(ScheduleCommand, Lb4ompPortfolioSchedulesPrintTheirChunks) {
  EXPECT_EQ(counts(run_schedule({"tfss", 100, 2, {}, {}}, {})),
            (std::vector<int>{24, 24, 18, 18, 12, 4}));
  EXPECT_EQ(counts(run_schedule({"fiss", 100, 2, {}, {}}, {})), (std::vector<int>{13, 13, 38, 36}));
  EXPECT_EQ(counts(run_schedule({"viss", 100, 2, {}, {}}, {})), (std::vector<int>{25, 25, 38, 12}));
  std::vector<int> mfsc(11, 9);
  mfsc.push_back(1);
  EXPECT_EQ(counts(run_schedule({"mfsc", 100, 2, {}, {}}, {})), mfsc);
  const std::vector<int> tap = counts(run_schedule({"tap", 1000, 4, {}, {"cv=1"}}, {}));
  ASSERT_GE(tap.size(), 2u);
  EXPECT_EQ(tap[0], 229);
  EXPECT_EQ(tap[1], 174);
  const nlohmann::json rnd = run_schedule({"rnd", 1000, 4, {}, {"seed=3"}}, {});
  EXPECT_EQ(rnd["params"]["seed"], 3);
  const std::vector<int> drawn = counts(rnd);
  for (std::size_t i = 0; i + 1 < drawn.size(); ++i) {
    EXPECT_GE(drawn[i], 2);
    EXPECT_LE(drawn[i], 125);
  }
  EXPECT_EQ(counts(run_schedule({"rnd", 1000, 4, {}, {"seed=3"}}, {})), drawn);
  EXPECT_NE(refusal({"fiss", 100, 2, {}, {"stages=1"}}).find("stages"), std::string::npos);
}

int run_lbbench(const std::string& args, std::string& out) {
  const char* build = std::getenv("LBB_BUILD_DIR");
  const std::filesystem::path exe = std::filesystem::path(build ? build : "build") / "lbbench";
  if (!std::filesystem::exists(exe)) ADD_FAILURE() << exe << " missing: build target lbbench";
  FILE* pipe = popen((exe.string() + " schedule " + args + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf{};
  out.clear();
  while (std::fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ScheduleCommand, ProcessPrintsJsonOrExitsWithTwo) {
  std::string out;
  ASSERT_EQ(run_lbbench("--method fac2 --iterations 1000 --processors 4", out), 0) << out;
  EXPECT_EQ(counts(nlohmann::json::parse(out)).front(), 125);
  EXPECT_EQ(run_lbbench("--method fac2 --iterations 1000 --processors 4 --speeds 1,x", out), 2);
  EXPECT_EQ(run_lbbench("--method nope --iterations 10 --processors 2", out), 2) << out;
  EXPECT_NE(out.find("unknown schedule 'nope'"), std::string::npos) << out;
  EXPECT_EQ(run_lbbench("--method gss --processors 2 --iteration-times /nonexistent", out), 2);
  ASSERT_EQ(run_lbbench("--method tfss --iterations 100 --processors 2", out), 0) << out;
  EXPECT_EQ(counts(nlohmann::json::parse(out)), (std::vector<int>{24, 24, 18, 18, 12, 4}));
}

}  // namespace
}  // namespace lbb
