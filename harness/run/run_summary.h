#pragma once
// Whole-run figures from the step records (definitions in docs/ARCHITECTURE.md, "Metrics").
#include <cstdint>

#include "harness/base/step_record.h"

namespace lbb {

struct RunSummary {
  int steps = 0;
  double makespan = 0;   // s, sum of modelled step makespans
  double wall = 0;       // s, sum of step wall times
  double ideal = 0;      // s, sum of ideal step times
  double busy = 0;       // s, CPU time running modules, summed over steps and processors
  double balance = 0;    // s, sum of decision times
  double migration = 0;  // s, sum over steps of the slowest processor's migration time
  double imbalance = 0;  // mean over steps of max/mean processor busy time - 1
  std::int64_t migrations = 0;
  std::int64_t bytes_moved = 0;
  double efficiency() const;  // harness/exec/step_recorder.h
};

// A StepSink that accumulates a RunSummary and passes each record on (to the archive).
class SummarySink final : public StepSink {
 public:
  explicit SummarySink(StepSink* next = nullptr) : next_(next) {}
  void on_step(const StepRecord& r) override;
  void on_steps(std::span<const StepRecord> records) override;
  const RunSummary& summary() const { return summary_; }

 private:
  void add(const StepRecord& r);
  StepSink* next_;
  RunSummary summary_;
  double imbalance_sum_ = 0;
};

}  // namespace lbb
