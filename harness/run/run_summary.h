#pragma once
// Whole-run figures from the step records (definitions in docs/ARCHITECTURE.md, "Metrics").
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "harness/base/step_record.h"

namespace lbb {

struct RunSummary {
  int steps = 0;
  double makespan = 0;        // s, sum of modelled step makespans
  double wall = 0;            // s, sum of step wall times
  double ideal = 0;           // s, sum of ideal step times
  double largest_module = 0;  // s, sum over steps of the largest-module bound (0: costs unknown)
  double busy = 0;            // s, CPU time running modules, summed over steps and processors
  double balance = 0;         // s, sum of decision times
  double migration = 0;       // s, sum over steps of the slowest processor's migration time
  double imbalance = 0;       // mean over steps of max/mean processor busy time - 1
  std::int64_t migrations = 0;
  std::int64_t bytes_moved = 0;
  // s, of in-step schedules and fastest-finish schemes on threads: the run's module costs
  // replayed at P modelled processors (harness/run/modelled_replay.h); NaN: not replayed
  double replayed_makespan = std::numeric_limits<double>::quiet_NaN();
  double efficiency() const;  // harness/exec/step_recorder.h
};

// No strategy finishes a step before its largest module: per phase, the largest module's cost at
// speed 1 (its recorded cost times its owner's speed, less the owner's external load) over the
// fastest speed, summed over the phases. 0 where the step recorded no module costs.
double largest_module_bound(const StepRecord& r, std::span<const double> speeds);

// A StepSink that accumulates a RunSummary and passes each record on (to the run's writer).
class SummarySink final : public StepSink {
 public:
  explicit SummarySink(StepSink* next = nullptr, std::vector<double> speeds = {})
      : next_(next), speeds_(std::move(speeds)) {}
  void on_step(const StepRecord& r) override;
  void on_steps(std::span<const StepRecord> records) override;
  const RunSummary& summary() const { return summary_; }

 private:
  void add(const StepRecord& r);
  StepSink* next_;
  std::vector<double> speeds_;  // empty: all 1
  RunSummary summary_;
  double imbalance_sum_ = 0;
};

}  // namespace lbb
