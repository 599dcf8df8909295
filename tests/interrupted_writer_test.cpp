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
RunRecord header() {
  RunRecord r;
  r.name = "interrupted";
  r.invocation = "test";
  r.started = "2026-12-02T00:00:00Z";
  r.status = "partial";
  r.interrupted = 0;
  return r;
}

RunWriter* begin(ResultWriter& set) {
  return abandoned->runs.emplace_back(set.begin_run(RunLayout{})).get();
}

void ending(RunRecord& r) {
  r.status = "failed";
  r.interrupted = 1;
  r.error = "interrupted by SIGINT";
}

TEST(InterruptedWriter, BetweenRunsNoRunWasInFlight) {
  const auto dir = fresh_dir("between");
  ResultWriter& set = new_set(dir);
  RunWriter* run = begin(set);
  RunRecord record = header();
  run->write_header(record);
  record.status = "complete";
  run->end(record);
  const ResultWriter::Exit ended = set.finish_before_exit(ending);
  EXPECT_FALSE(ended.in_flight);
  EXPECT_EQ(ended.runs, 1u);
  const ResultReader back(dir.string());
  for (const std::string& p : back.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(back.runs().size(), 1u);
  EXPECT_EQ(back.runs()[0].status, "complete");
  std::filesystem::remove_all(dir);
}

TEST(InterruptedWriter, DuringARunItIsWrittenAsFailed) {
  const auto dir = fresh_dir("during");
  ResultWriter& set = new_set(dir);
  RunWriter* run = begin(set);
  run->write_header(header());
  const ResultWriter::Exit ended = set.finish_before_exit(ending);
  EXPECT_TRUE(ended.in_flight);
  EXPECT_EQ(ended.runs, 1u);
  const ResultReader back(dir.string());
  for (const std::string& p : back.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(back.runs().size(), 1u);
  const RunRecord& failed = back.runs()[0];
  EXPECT_EQ(failed.status, "failed");  // the ending over its header
  EXPECT_EQ(failed.interrupted, 1);
  EXPECT_EQ(failed.error, "interrupted by SIGINT");
  EXPECT_EQ(failed.name, "interrupted");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lbb
