// An interrupt's writer (ResultWriter::finish_before_exit, called by `lbbench run`'s signal
// thread) says whether a run was in flight, so that the line printed on exit is true: the run
// written as failed, or none.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "harness/results/result_reader.h"
#include "harness/results/result_writer.h"

namespace lbb {
namespace {

// finish_before_exit leaves its writer locked for good (the process exits): the writers and their
// runs are never destroyed (a destructor would wait for the lock), and stay reachable.
struct Abandoned {
  std::vector<std::unique_ptr<ResultWriter>> sets;
  std::vector<std::unique_ptr<RunWriter>> runs;
};
Abandoned* const abandoned = new Abandoned;

ResultWriter& new_set(const std::filesystem::path& dir) {
  return *abandoned->sets.emplace_back(
      std::make_unique<ResultWriter>(dir.string(), InvocationRecord{}));
}

std::filesystem::path fresh_dir(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   (std::string("lbb_interrupted_") + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

// A run's header as the runner writes it, as far as the reader needs it.
RunWriter* header(ResultWriter& set) {
  RunWriter* run = abandoned->runs.emplace_back(set.begin_run(RunLayout{})).get();
  run->set_text("invocation", "test");
  run->set_text("started", "2026-12-02T00:00:00Z");
  run->set_text("status", "partial");
  run->set_int("interrupted", 0);
  return run;
}

const std::vector<std::pair<std::string, ResultValue>> kEnding = {{"status", std::string("failed")},
                                                                  {"interrupted", std::int64_t{1}}};

TEST(InterruptedWriter, BetweenRunsNoRunWasInFlight) {
  const auto dir = fresh_dir("between");
  ResultWriter& set = new_set(dir);
  RunWriter* run = header(set);
  run->set_text("status", "complete");
  run->mark_in_flight();
  run->end();
  const ResultWriter::Exit ended = set.finish_before_exit(kEnding);
  EXPECT_FALSE(ended.in_flight);
  EXPECT_EQ(ended.runs, 1u);
  const ResultReader back(dir.string());
  for (const std::string& p : back.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(back.runs().size(), 1u);
  EXPECT_EQ(back.runs()[0].text.at("status"), "complete");
  std::filesystem::remove_all(dir);
}

TEST(InterruptedWriter, DuringARunItIsWrittenAsFailed) {
  const auto dir = fresh_dir("during");
  ResultWriter& set = new_set(dir);
  RunWriter* run = header(set);
  run->mark_in_flight();
  const ResultWriter::Exit ended = set.finish_before_exit(kEnding);
  EXPECT_TRUE(ended.in_flight);
  EXPECT_EQ(ended.runs, 1u);
  const ResultReader back(dir.string());
  for (const std::string& p : back.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(back.runs().size(), 1u);
  EXPECT_EQ(back.runs()[0].text.at("status"), "failed");
  EXPECT_EQ(back.runs()[0].number.at("interrupted"), 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lbb
