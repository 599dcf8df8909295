#pragma once
// An automatic schedule choice judged against the fixed schedules of the same run set: per run,
// its regret, its makespan_total over the smallest median makespan_total of any fixed loop
// schedule (each label a schedule of `lbbench list` other than auto4omp) run on the same
// workload and processors in the same trial (the swept values: a seed's draws); the row's value
// is the median over its runs. 1: as good as the best fixed schedule of its trial.
#include <string>
#include <vector>

#include "harness/base/recorded_runs.h"
#include "harness/papers/expectation_samples.h"

namespace lbb {

struct ScheduleRegret {
  double regret = 0;            // the median of the runs' regrets
  double low = 0, high = 0;     // the least and the largest
  int runs = 0, schedules = 0;  // runs of `here` with a trial of a fixed schedule; labels seen
};

// Nothing measured (runs 0) when `here` is empty or no fixed schedule ran beside it.
ScheduleRegret schedule_regret(const std::vector<RunRecord>& all,
                               const std::vector<const RunRecord*>& here, const RunFactsMap& facts);

}  // namespace lbb
