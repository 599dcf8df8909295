// execution.record (issue 52): each level writes exactly its tables and every coarser one's, the
// config key takes the levels and auto (the executor's default), module_detail is its old form,
// and a reader of a table the run's level did not write says which level it needs.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "config_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/results/recorded_level.h"
#include "harness/results/result_reader.h"
#include "harness/results/result_writer.h"

namespace lbb {
namespace {

constexpr int kP = 2, kM = 3, kSteps = 4;

// A run of kSteps steps on kP processors and kM modules written at `level` into a fresh set.
std::filesystem::path written_at(RecordLevel level) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("lbb_levels_" + std::to_string(getpid()) + "_" + std::string(record_level_name(level)));
  std::filesystem::remove_all(dir);
  ResultWriter set(dir.string(), InvocationRecord{});
  auto run = set.begin_run(RunLayout{{"residual"}, kP, kM, level, 1});
  for (int s = 0; s < kSteps; ++s) {
    StepRecord r;
    r.step = s;
    for (auto* v :
         {&r.busy, &r.busy_wall, &r.idle, &r.proc_balance, &r.proc_migration, &r.external_load})
      v->assign(kP, 0.5);
    r.triggered.assign(kP, 0);
    r.module_cost.assign(kM, 0.25);
    r.module_owner = {0, 1, 1};
    r.metrics = {1.0};
    run->on_step(r);
  }
  RunRecord record;
  record.status = "complete";
  record.record = std::string(record_level_name(level));
  run->end(record);
  set.finish();
  return dir;
}

TEST(RecordLevels, EachLevelWritesItsTablesAndEveryCoarserOnes) {
  for (RecordLevel level :
       {RecordLevel::kRuns, RecordLevel::kSteps, RecordLevel::kProcs, RecordLevel::kModules}) {
    const auto dir = written_at(level);
    const ResultReader read(dir.string());
    for (const std::string& p : read.problems()) ADD_FAILURE() << p;
    const auto rows = [&](TableId t) { return read.table(t).rows(); };
    const auto at = [&](RecordLevel needed, std::size_t n) {
      return level >= needed ? n : std::size_t{0};
    };
    SCOPED_TRACE(std::string(record_level_name(level)));
    EXPECT_EQ(rows(TableId::kRuns), 1u);
    EXPECT_EQ(rows(TableId::kSteps), at(RecordLevel::kSteps, kSteps));
    EXPECT_EQ(rows(TableId::kProcs), at(RecordLevel::kProcs, kSteps * kP));
    EXPECT_EQ(rows(TableId::kModules), at(RecordLevel::kModules, kSteps * kM));
    ASSERT_EQ(read.runs().size(), 1u);
    EXPECT_EQ(recorded_level(read.runs()[0]), level);
    std::filesystem::remove_all(dir);
  }
}

TEST(RecordLevels, AReaderOfATableTheLevelDidNotWriteSaysWhichLevelItNeeds) {
  const auto dir = written_at(RecordLevel::kSteps);
  const ResultReader read(dir.string());
  const std::string run = read.runs().at(0).run;
  EXPECT_EQ(read.read_series(run, "metric/residual").size(), std::size_t{kSteps});
  std::size_t rows = 0, cols = 0;
  try {
    read.read_matrix(run, "proc/busy", rows, cols);
    ADD_FAILURE() << "proc/busy of a run recorded at steps read as empty";
  } catch (const ResultError& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("run " + run), std::string::npos) << why;
    EXPECT_NE(why.find("recorded at execution.record: steps, which writes no procs table"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("needs record: procs or finer"), std::string::npos) << why;
  }
  EXPECT_THROW(read.read_matrix(run, "module/cost", rows, cols), ResultError);
  std::filesystem::remove_all(dir);
}

TEST(RecordLevels, ASetOlderThanTheColumnReadsAsItsRunsWroteThen) {
  RunRecord old;
  old.config_yaml = "execution:\n  module_detail: false\n";
  EXPECT_EQ(recorded_level(old), RecordLevel::kProcs);
  old.config_yaml = "execution:\n  module_detail: true\n";
  EXPECT_EQ(recorded_level(old), RecordLevel::kModules);
  old.record = "everything";  // no level names it: nothing beyond the row is assumed
  EXPECT_EQ(recorded_level(old), RecordLevel::kRuns);
}

const char* kLevelsHead = R"(workload: { kind: block_substitution, blocks: 16 }
platform: { processors: 2 }
balancers: [ { static: block } ]
)";

RecordLevel level_of(const std::string& execution, std::vector<std::string>* notes = nullptr) {
  const Config c = load_config_text(std::string(kLevelsHead) + execution, "FILE");
  if (notes) *notes = c.deprecated;
  return c.runs.at(0).record;
}

TEST(RecordLevels, TheKeyTakesTheLevelsAndAutoIsTheExecutorsDefault) {
  EXPECT_EQ(level_of("execution: { record: runs }\n"), RecordLevel::kRuns);
  EXPECT_EQ(level_of("execution: { record: modules }\n"), RecordLevel::kModules);
  EXPECT_EQ(level_of("execution: { steps: 3 }\n"), RecordLevel::kProcs);  // bsp
  const Config sim = load_config_text(
      "workload: { kind: synthetic, modules: 8 }\nplatform: { processors: 2 }\n"
      "execution: { executor: simulate }\nbalancers: [ { static: block } ]\n",
      "FILE");
  EXPECT_EQ(sim.runs.at(0).record, RecordLevel::kSteps);
  EXPECT_EQ(
      testing::config_error_of(std::string(kLevelsHead) + "execution: { record: everything }\n"),
      "FILE:4:22: record must be one of auto runs steps procs modules, got 'everything'");
}

TEST(RecordLevels, ModuleDetailIsRecordsOldFormWithAWarning) {
  std::vector<std::string> notes;
  EXPECT_EQ(level_of("execution: { module_detail: true }\n", &notes), RecordLevel::kModules);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "FILE:4:29: execution.module_detail is deprecated; use execution.record: modules for "
            "module_detail: true");
  EXPECT_EQ(level_of("execution: { module_detail: false }\n", &notes), RecordLevel::kProcs);
  EXPECT_EQ(notes.size(), 1u);
  EXPECT_NE(testing::config_error_of(std::string(kLevelsHead) +
                                     "execution: { module_detail: true, record: steps }\n")
                .find("execution.module_detail and execution.record both given"),
            std::string::npos);
}

}  // namespace
}  // namespace lbb
