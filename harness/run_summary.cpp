#include "harness/run_summary.h"

#include <algorithm>

namespace lbb {

void SummarySink::on_step(const StepRecord& r) {
  RunSummary& s = summary_;
  ++s.steps;
  s.makespan += r.makespan;
  s.wall += r.wall;
  s.ideal += r.ideal;
  s.balance += r.balance;
  s.migration += r.proc_migration.empty()
                     ? 0.0
                     : *std::max_element(r.proc_migration.begin(), r.proc_migration.end());
  s.migrations += r.migrations;
  s.bytes_moved += r.bytes_moved;
  double max = 0, sum = 0;
  for (double b : r.busy) {
    max = std::max(max, b);
    sum += b;
  }
  const double mean = r.busy.empty() ? 0 : sum / r.busy.size();
  imbalance_sum_ += mean > 0 ? max / mean - 1.0 : 0.0;
  s.imbalance = imbalance_sum_ / s.steps;
  if (next_) next_->on_step(r);
}

}  // namespace lbb
