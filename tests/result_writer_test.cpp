// The result writer hands a long run's rows to a part before the run ends when they outgrow its
// budget (LBB_RESULTS_BUDGET_MB); the run's later rows must keep their columns' names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "harness/results/result_reader.h"
#include "harness/results/result_schema.h"
#include "harness/results/result_writer.h"

namespace lbb {
namespace {

TEST(ResultWriter, RowsHandedOverMidRunKeepTheirColumns) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("lbb_writer_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  setenv("LBB_RESULTS_BUDGET_MB", "1", 1);
  const int P = 256, steps = 200;  // ~200 procs rows of 8 B x ~10 columns a step: several MB
  {
    ResultWriter set(dir.string(), InvocationRecord{});
    auto run = set.begin_run(RunLayout{{"residual"}, P, 1, RecordLevel::kProcs, 1});
    for (int s = 0; s < steps; ++s) {
      StepRecord r;
      r.step = s;
      r.makespan = s + 1.0;
      for (auto* v :
           {&r.busy, &r.busy_wall, &r.idle, &r.proc_balance, &r.proc_migration, &r.external_load})
        v->assign(P, 0.5);
      r.triggered.assign(P, 0);
      r.metrics = {1.0 / (s + 1)};
      run->on_step(r);
    }
    RunRecord record;
    record.status = "complete";
    record.invocation = "test";
    run->end(record);
    set.finish();
    EXPECT_GT(set.parts_written(), 1);  // the budget handed rows over before the end
  }
  unsetenv("LBB_RESULTS_BUDGET_MB");
  const ResultReader read(dir.string());
  for (const std::string& p : read.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(read.runs().size(), 1u);
  const std::vector<double> makespan = read.read_series(read.runs()[0].run, "step/makespan");
  ASSERT_EQ(makespan.size(), static_cast<std::size_t>(steps));
  EXPECT_EQ(makespan.back(), steps);
  EXPECT_EQ(read.read_series(read.runs()[0].run, "metric/residual").size(),
            static_cast<std::size_t>(steps));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lbb
