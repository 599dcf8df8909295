#pragma once
// Where a simulation's module costs come from, step after step: seconds at nominal speed (speed
// 1, no external load) per module. A synthetic source draws them (workloads/synthetic_costs.h);
// a recorded run gives back what its modules measured (`module/cost`, archived with
// execution.module_detail) together with its owners and busy times, so that a simulation whose
// owners equal the recorded ones hands its balancer the very view the real run's had.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "workloads/synthetic_costs.h"

namespace lbb {

class ArchiveReader;

class CostStream {
 public:
  virtual ~CostStream() = default;
  // Step `step`'s costs; steps are asked for in order 0, 1, 2, ...
  virtual const std::vector<double>& nominal(int step) = 0;
  // Recorded runs only (else empty): the step's owners and measured busy time per processor.
  virtual std::span<const int> recorded_owner(int /*step*/) const { return {}; }
  virtual std::span<const double> recorded_busy(int /*step*/) const { return {}; }
  virtual int steps() const { return -1; }  // -1: as many as asked for
  // Owners to start from instead of the static partition (a recorded run that had warm-up
  // steps starts where they left it); empty: partition.
  virtual std::span<const int> start_owner() const { return {}; }
};

class SyntheticStream final : public CostStream {
 public:
  explicit SyntheticStream(SyntheticCosts& source) : source_(source) {}
  const std::vector<double>& nominal(int step) override { return source_.step_costs(step); }

 private:
  SyntheticCosts& source_;
};

// The recorded steps of one run: module/cost x the recorded owner's speed (the nominal cost the
// real run's balancers saw), module/owner and proc/busy. Throws std::invalid_argument when the
// run lacks module detail or is not a one-phase run of P processors and M modules.
class RecordedStream final : public CostStream {
 public:
  // resume: start from the first recorded step's owners (the run had warm-up steps).
  RecordedStream(const ArchiveReader& archive, const std::string& run,
                 std::span<const double> speed, bool resume = false);
  const std::vector<double>& nominal(int step) override;
  std::span<const int> recorded_owner(int step) const override;
  std::span<const double> recorded_busy(int step) const override;
  int steps() const override { return steps_; }
  std::span<const int> start_owner() const override {
    return resume_ ? recorded_owner(0) : std::span<const int>{};
  }
  int modules() const { return modules_; }

 private:
  int steps_ = 0, modules_ = 0, processors_ = 0;
  bool resume_ = false;
  std::vector<double> speed_, cost_, busy_, row_;
  std::vector<int> owner_;
};

// The first complete run of `archive` with module detail for `workload` at P processors, or
// `run` when given; throws std::invalid_argument naming what is missing.
std::string recorded_run_for(const ArchiveReader& archive, const std::string& run,
                             const std::string& workload, int processors);

}  // namespace lbb
