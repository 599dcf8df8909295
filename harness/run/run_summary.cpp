#include "harness/run/run_summary.h"

#include <algorithm>

#include "harness/exec/step_recorder.h"

namespace lbb {

double RunSummary::efficiency() const {
  return lbb::efficiency(ideal, makespan);
}

void SummarySink::on_step(const StepRecord& r) {
  add(r);
  if (next_) next_->on_step(r);
}

void SummarySink::on_steps(std::span<const StepRecord> records) {
  for (const StepRecord& r : records) add(r);
  if (next_) next_->on_steps(records);
}

void SummarySink::add(const StepRecord& r) {
  RunSummary& s = summary_;
  ++s.steps;
  s.makespan += r.makespan;
  s.wall += r.wall;
  s.ideal += r.ideal;
  for (double b : r.busy) s.busy += b;
  s.balance += r.balance;
  s.migration += r.proc_migration.empty()
                     ? 0.0
                     : *std::max_element(r.proc_migration.begin(), r.proc_migration.end());
  s.migrations += r.migrations;
  s.bytes_moved += r.bytes_moved;
  imbalance_sum_ += step_imbalance(r.busy);
  s.imbalance = imbalance_sum_ / s.steps;
}

}  // namespace lbb
