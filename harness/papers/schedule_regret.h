#pragma once
// An automatic schedule choice judged against the fixed schedules of the same run set: its
// regret, the median makespan_total of the chosen runs over the smallest median makespan_total
// of any fixed loop schedule (each label a schedule of `lbbench list` other than auto4omp) run on
// the same workload and processors. 1: as good as the best fixed schedule.
#include <string>
#include <vector>

#include "harness/base/recorded_runs.h"
#include "harness/papers/expectation_samples.h"

namespace lbb {

struct ScheduleRegret {
  double regret = 0;            // median(here) / best
  double low = 0, high = 0;     // the runs' own makespans over best, least and most
  std::string best;             // the best fixed schedule's label
  int runs = 0, schedules = 0;  // runs of `here`; fixed schedules compared
};

// Nothing measured (runs 0) when `here` is empty or no fixed schedule ran beside it.
ScheduleRegret schedule_regret(const std::vector<RunInfo>& all,
                               const std::vector<const RunInfo*>& here, const RunFactsMap& facts);

}  // namespace lbb
