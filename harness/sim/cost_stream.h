#pragma once
// Where a simulation's module costs come from, step after step and phase after phase: seconds at
// nominal speed (speed 1, no external load) per module. A synthetic source draws them
// (workloads/synthetic_costs.h); a recorded run gives back what its modules measured
// (`module/cost`, recorded with execution.record: modules) together with its owners and busy times,
// so that a simulation whose owners equal the recorded ones hands its balancer the very view the
// real run's had.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "workloads/synthetic_costs.h"

namespace lbb {

class RecordedRuns;

// What the ranks of a recorded run across MPI ranks sent each other in a step besides the moved
// states (harness/mpi/'s metrics exchange_bytes, balance_messages, balance_bytes).
struct RankTraffic {
  double exchange_bytes = 0, balance_messages = 0, balance_bytes = 0;
};

class CostStream {
 public:
  virtual ~CostStream() = default;
  // The costs of phase `phase` of step `step`; asked for in order: step 0's phases 0, 1, ...,
  // then step 1's, ...
  virtual const std::vector<double>& nominal(int step, int phase = 0) = 0;
  // Recorded runs only (else empty): the phase's owners in the step, and the processors' measured
  // busy times (one-phase runs: proc/busy sums a step's phases).
  virtual std::span<const int> recorded_owner(int /*step*/, int /*phase*/ = 0) const { return {}; }
  virtual std::span<const double> recorded_busy(int /*step*/, int /*phase*/ = 0) const {
    return {};
  }
  virtual RankTraffic recorded_traffic(int /*step*/) const { return {}; }
  // Recorded runs only (else 0): CPU seconds of the workload's serial end of step (Barnes-Hut's
  // tree build), which no balancer changes; a run across ranks's exchange taken out.
  virtual double recorded_serial(int /*step*/) const { return 0; }
  // Recorded state sizes (else empty): each module's bytes at step `step`'s end, which moves
  // after it copy (Barnes-Hut's cells gain and lose bodies).
  virtual std::span<const std::uint64_t> state_bytes(int /*step*/) const { return {}; }
  virtual int steps() const { return -1; }  // -1: as many as asked for
  // Owners of a phase to start from instead of the static partition (a recorded run that had
  // warm-up steps starts where they left it); empty: partition.
  virtual std::span<const int> start_owner(int /*phase*/ = 0) const { return {}; }
};

// A workload that brings its own costs (an imported trace, harness/formats/trace_workload.h):
// the simulator asks it for them. Declared here so that the simulator needs nothing above it.
class CostSource {
 public:
  virtual ~CostSource() = default;
  // Costs for P processors; `partitioned`: a static partitioner places the modules.
  virtual std::shared_ptr<CostStream> stream(int processors, bool partitioned) const = 0;
};

class SyntheticStream final : public CostStream {
 public:
  explicit SyntheticStream(SyntheticCosts& source) : source_(source) {}
  const std::vector<double>& nominal(int step, int phase) override {
    return phase == 0 ? source_.step_costs(step) : source_.phase_costs(phase);
  }

 private:
  SyntheticCosts& source_;
};

// The recorded steps of one run: module/cost x the recorded owner's speed (the nominal cost the
// real run's balancers saw), module/owner, proc/busy and step/serial; of a run of several phases,
// each phase's module/phase_cost and module/phase_owner instead. Throws std::invalid_argument when
// the run lacks module detail or is not a run of P processors and M modules.
class RecordedStream final : public CostStream {
 public:
  // phases: the workload's; resume: start from the first recorded step's owners (the run had
  // warm-up steps).
  RecordedStream(const RecordedRuns& set, const std::string& run, std::span<const double> speed,
                 int phases = 1, bool resume = false);
  const std::vector<double>& nominal(int step, int phase) override;
  std::span<const int> recorded_owner(int step, int phase) const override;
  std::span<const double> recorded_busy(int step, int phase) const override;
  RankTraffic recorded_traffic(int step) const override;
  double recorded_serial(int step) const override;
  // Reads the run's RankTraffic (a run across MPI ranks), and takes its exchange out of the
  // recorded serial part; throws std::invalid_argument when it lacks them.
  void read_rank_traffic(const RecordedRuns& set, const std::string& run);
  int steps() const override { return steps_; }
  std::span<const int> start_owner(int phase) const override {
    return resume_ ? recorded_owner(0, phase) : std::span<const int>{};
  }
  int modules() const { return modules_; }
  int phases() const { return phases_; }

 private:
  int steps_ = 0, modules_ = 0, processors_ = 0, phases_ = 1;
  bool resume_ = false;
  std::vector<double> speed_, cost_, busy_, row_, serial_;
  std::vector<int> owner_;
  std::vector<RankTraffic> traffic_;  // per step; empty: none recorded
};

// The first complete run of `set` with module detail for `workload` at P processors, or
// `run` when given; throws std::invalid_argument naming what is missing.
std::string recorded_run_for(const RecordedRuns& set, const std::string& run,
                             const std::string& workload, int processors);

}  // namespace lbb
