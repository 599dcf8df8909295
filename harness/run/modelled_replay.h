#pragma once
// A modelled makespan for the runs whose own one misorders them where threads outnumber cores:
// in-step schedules and the fastest-finish schemes (Zaki, Li & Parthasarathy 1997), whose
// hand-out and synchronisations follow which threads the host happened to run. The run's
// measured module costs (thread CPU time, at nominal speed) are replayed at P processors of its
// speeds: the OpenMP schedules by harness/sim/schedule_model.h, the loop self-scheduling
// techniques and the fastest-finish schemes by the simulate executor, charged by the config's
// execution.sim_* keys. Recorded as the runs column replayed_makespan_total.
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "harness/base/run_spec.h"
#include "harness/base/step_record.h"
#include "harness/sim/captured_stream.h"
#include "workloads/workload.h"

namespace lbb {

// Whether a run gets a replay: threads on one host (the bsp or self_scheduled executor) under an
// in-step schedule or a dynamic balancer that decides in step (roles in_step and choice).
bool gets_modelled_replay(const RunSpec& spec, const std::string& executor);

// Keeps each measured step's module costs for the replay and passes the records on. A record
// without them leaves the replay undone (problem()), never the run.
class ReplayCapture final : public StepSink {
 public:
  ReplayCapture(StepSink& next, const RunSpec& spec, int modules, int phases);
  void on_step(const StepRecord& r) override;
  void on_steps(std::span<const StepRecord> records) override;
  const std::shared_ptr<CapturedStream>& costs() const { return costs_; }
  const std::string& problem() const { return problem_; }

 private:
  void keep(const StepRecord& r);
  StepSink& next_;
  std::shared_ptr<CapturedStream> costs_;
  std::string problem_;
};

struct ModelledReplay {
  double makespan = std::numeric_limits<double>::quiet_NaN();  // s, summed over steps
  std::string problem;                                         // why not, when NaN
};

// The replay of the captured costs under the run's own schedule or balancers. Never throws.
ModelledReplay replay_in_model(const RunSpec& spec, const WorkloadInfo& workload,
                               const ReplayCapture& capture);

}  // namespace lbb
