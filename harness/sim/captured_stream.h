#pragma once
// The module costs a run just measured, kept in memory as the simulator's cost source: what a
// modelled replay of a live run (harness/run/modelled_replay.h) runs its model on, as
// RecordedStream gives back a recorded run's.
#include <span>
#include <vector>

#include "harness/base/step_record.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

// Each measured step's module costs x their runner's speed (the nominal costs the run's
// balancers saw, its external load in them), runners, busy times and serial part. Records
// without module costs (the executor recorded none) are refused by add.
class CapturedStream final : public CostStream {
 public:
  // phases: the workload's; resume: start from the first captured step's owners (the run had
  // warm-up steps).
  CapturedStream(std::span<const double> speed, int modules, int phases, bool resume);
  // Throws std::invalid_argument when the record lacks module costs of every phase.
  void add(const StepRecord& r);

  const std::vector<double>& nominal(int step, int phase) override;
  std::span<const int> recorded_owner(int step, int phase) const override;
  std::span<const double> recorded_busy(int step, int phase) const override;
  double recorded_serial(int step) const override;
  int steps() const override { return static_cast<int>(serial_.size()); }
  std::span<const int> start_owner(int phase) const override {
    return resume_ && steps() > 0 ? recorded_owner(0, phase) : std::span<const int>{};
  }
  std::span<const double> speed() const { return speed_; }
  int modules() const { return modules_; }
  int phases() const { return phases_; }

 private:
  std::size_t at(int step, int phase) const {
    return (static_cast<std::size_t>(step) * phases_ + phase) * modules_;
  }
  std::vector<double> speed_;
  int modules_ = 0, phases_ = 1;
  bool resume_ = false;
  std::vector<double> nominal_, busy_, serial_, row_;  // [step][phase][module], [step][proc]
  std::vector<int> owner_;
};

}  // namespace lbb
