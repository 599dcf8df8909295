// The files of a result set around its parts: a killed writer's temporary is removed by the next
// writer once no live writer holds it, and a writer whose folder stops taking parts says so at
// once and keeps nothing more in memory (harness/results/part_file.h, result_writer.h).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "harness/results/part_file.h"
#include "harness/results/result_reader.h"
#include "harness/results/result_writer.h"

namespace lbb {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("lbb_set_files_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void touch(const fs::path& path, std::chrono::seconds age) {
  std::ofstream(path) << "half a part";
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

TEST(StaleTemporaries, OnlyUnlockedOldOnesAreRemoved) {
  const fs::path dir = scratch("stale");
  const auto hour = std::chrono::hours(1);
  touch(dir / ".killed.0000.h5.tmp", hour);
  touch(dir / ".held.0000.h5.tmp", hour);
  touch(dir / ".fresh.0000.h5.tmp", std::chrono::seconds(0));
  touch(dir / ".notes.tmp", hour);  // not a part's temporary
  touch(dir / "kept.0000.h5", hour);
  const int held = open((dir / ".held.0000.h5.tmp").c_str(), O_RDWR);
  ASSERT_GE(held, 0);
  ASSERT_EQ(flock(held, LOCK_EX), 0);  // as a live writer holds its temporary
  const std::vector<std::string> removed = remove_stale_temporaries(dir.string(), 600);
  EXPECT_EQ(removed, std::vector<std::string>{".killed.0000.h5.tmp"});
  EXPECT_FALSE(fs::exists(dir / ".killed.0000.h5.tmp"));
  for (const char* kept : {".held.0000.h5.tmp", ".fresh.0000.h5.tmp", ".notes.tmp", "kept.0000.h5"})
    EXPECT_TRUE(fs::exists(dir / kept)) << kept;
  close(held);
  fs::remove_all(dir);
}

TEST(StaleTemporaries, TheNextWriterRemovesThem) {
  const fs::path dir = scratch("next");
  touch(dir / ".inv.abc.0003.h5.tmp", std::chrono::hours(1));
  { ResultWriter writer(dir.string(), InvocationRecord{}); }
  EXPECT_FALSE(fs::exists(dir / ".inv.abc.0003.h5.tmp"));
  EXPECT_TRUE(fs::is_empty(dir));  // nor the writer's own probe of the folder
  fs::remove_all(dir);
}

void end_a_run(ResultWriter& writer) {
  auto run = writer.begin_run(RunLayout{});
  RunRecord record;
  record.status = "complete";
  record.invocation = "inv";
  record.started = "2026-12-02T00:00:00";
  StepRecord step;
  step.busy = {1};
  run->on_step(step);
  run->end(record);
}

TEST(ResultWriter, RefusesAnUnwritableFolderAtOnce) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes into a folder of mode 555";
  const fs::path dir = scratch("locked");
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  try {
    ResultWriter writer(dir.string(), InvocationRecord{});
    ADD_FAILURE() << "an unwritable folder taken";
  } catch (const ResultError& e) {
    EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
  }
  fs::permissions(dir, fs::perms::owner_all);
  fs::remove_all(dir);
}

TEST(ResultWriter, StopsKeepingRowsAtTheFirstFailedWrite) {
  const fs::path dir = scratch("gone");
  const fs::path set = dir / "set";
  setenv("LBB_RESULTS_PART_SECONDS", "0", 1);  // a part at every run's end
  {
    ResultWriter writer(set.string(), InvocationRecord{});
    end_a_run(writer);
    ASSERT_EQ(writer.parts_written(), 1);
    // The folder goes (as a disk fills or is unmounted): a file stands where it was.
    fs::rename(set, dir / "moved");
    std::ofstream(set) << "not a folder";
    EXPECT_THROW(end_a_run(writer), ResultError);
    const std::string failure = writer.failure();
    EXPECT_NE(failure.find(set.string()), std::string::npos) << failure;
    EXPECT_NE(failure.find("Not a directory"), std::string::npos) << failure;
    try {
      end_a_run(writer);  // refused at once, its rows not kept
      ADD_FAILURE() << "a run ended after a failed write";
    } catch (const ResultError& e) {
      EXPECT_EQ(std::string(e.what()), failure);
    }
    EXPECT_THROW(writer.finish(), ResultError);
    EXPECT_EQ(writer.parts_written(), 1);
  }
  unsetenv("LBB_RESULTS_PART_SECONDS");
  const ResultReader kept((dir / "moved").string());  // what was written before is whole
  EXPECT_TRUE(kept.problems().empty());
  EXPECT_EQ(kept.runs().size(), 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace lbb
