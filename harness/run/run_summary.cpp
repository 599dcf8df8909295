#include "harness/run/run_summary.h"

#include <algorithm>

#include "harness/exec/step_recorder.h"

namespace lbb {

double RunSummary::efficiency() const {
  return lbb::efficiency(ideal, makespan);
}

double largest_module_bound(const StepRecord& r, std::span<const double> speeds) {
  const bool phased = !r.phase_module_cost.empty();
  const std::vector<double>& cost = phased ? r.phase_module_cost : r.module_cost;
  const std::vector<int>& owner = phased ? r.phase_module_owner : r.module_owner;
  const std::size_t modules = r.module_cost.empty() ? cost.size() : r.module_cost.size();
  if (cost.empty() || owner.size() != cost.size() || modules == 0) return 0;
  const auto at = [](std::span<const double> v, int p, double fill) {
    return p >= 0 && static_cast<std::size_t>(p) < v.size() ? v[p] : fill;
  };
  double fastest = speeds.empty() ? 1 : *std::max_element(speeds.begin(), speeds.end());
  double bound = 0, largest = 0;
  for (std::size_t i = 0; i < cost.size(); ++i) {
    const int p = owner[i];
    largest = std::max(largest, cost[i] * at(speeds, p, 1) / (1 + at(r.external_load, p, 0)));
    if ((i + 1) % modules == 0) bound += largest, largest = 0;  // a phase ends
  }
  return (bound + largest) / fastest;
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
  s.largest_module += largest_module_bound(r, speeds_);
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
