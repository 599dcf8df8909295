#include "harness/run/modelled_replay.h"

#include <stdexcept>
#include <vector>

#include "harness/base/schedule.h"
#include "harness/exec/execution.h"
#include "harness/sim/schedule_model.h"
#include "harness/sim/simulate_executor.h"

namespace lbb {

namespace {

class TotalSink final : public StepSink {
 public:
  void on_step(const StepRecord& r) override { total += r.makespan; }
  double total = 0;
};

std::vector<double> speeds_of(const RunSpec& spec) {
  return spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds;
}

// Per step, each phase's loop on P modelled processors, then the step's serial part as measured.
double omp_total(const ScheduleChoice& schedule, CapturedStream& costs) {
  double total = 0;
  for (int s = 0; s < costs.steps(); ++s) {
    for (int ph = 0; ph < costs.phases(); ++ph)
      total += modelled_phase_finish(schedule, costs.nominal(s, ph), costs.speed());
    total += costs.recorded_serial(s);
  }
  return total;
}

// The simulate executor on the captured costs, as `simulate --replay` replays a recorded run.
double simulated_total(RunSpec spec, const WorkloadInfo& workload,
                       const std::shared_ptr<CapturedStream>& costs,
                       const ScheduleChoice& schedule) {
  if (std::string why = simulation_problem(spec); !why.empty()) throw std::invalid_argument(why);
  SimSettings settings = simulation_settings(spec);
  settings.replay_first_step = spec.warmup;  // a decision keyed to the step sees the run's
  spec.executor = "simulate";
  spec.record = RecordLevel::kSteps;  // nothing of the replay is written
  spec.external_load.max.clear();     // the measured costs hold the load the run had
  spec.warmup = 0;
  spec.steps = costs->steps();
  const auto execution = module_execution([&](const RunSpec&) {
    return std::make_unique<SimulateExecutor>(settings, costs, schedule);
  })(spec, workload);
  TotalSink sink;
  execution->run(sink);
  // The simulator's loop schedules run no serial part (SimRun charges the recorded one).
  if (schedule.kind == InStepSchedule::kChunked)
    for (int s = 0; s < costs->steps(); ++s) sink.total += costs->recorded_serial(s);
  return sink.total;
}

}  // namespace

bool gets_modelled_replay(const RunSpec& spec, const std::string& executor) {
  if (executor == "self_scheduled") return !spec.balancer.schedule_name.empty();
  if (executor != "bsp") return false;
  const BalancerInfo* dynamic = find_balancer(spec.balancer.dynamic_name);
  return dynamic &&
         (dynamic->role == BalancerRole::kInStep || dynamic->role == BalancerRole::kChoice);
}

ReplayCapture::ReplayCapture(StepSink& next, const RunSpec& spec, int modules, int phases)
    : next_(next) {
  try {
    costs_ = std::make_shared<CapturedStream>(speeds_of(spec), modules, phases, spec.warmup > 0);
  } catch (const std::exception& e) {
    problem_ = e.what();
  }
}

void ReplayCapture::keep(const StepRecord& r) {
  if (!problem_.empty()) return;
  try {
    costs_->add(r);
  } catch (const std::exception& e) {
    problem_ = e.what();
  }
}

void ReplayCapture::on_step(const StepRecord& r) {
  keep(r);
  next_.on_step(r);
}

void ReplayCapture::on_steps(std::span<const StepRecord> records) {
  for (const StepRecord& r : records) keep(r);
  next_.on_steps(records);
}

ModelledReplay replay_in_model(const RunSpec& spec, const WorkloadInfo& workload,
                               const ReplayCapture& capture) {
  ModelledReplay out;
  if (!capture.problem().empty()) {
    out.problem = capture.problem();
    return out;
  }
  try {
    const ScheduleChoice schedule =
        schedule_choice(spec.balancer.schedule_name, spec.balancer.schedule_params);
    const bool omp =
        schedule.kind != InStepSchedule::kAssigned && schedule.kind != InStepSchedule::kChunked;
    out.makespan = omp ? omp_total(schedule, *capture.costs())
                       : simulated_total(spec, workload, capture.costs(), schedule);
  } catch (const std::exception& e) {
    out.problem = e.what();
  }
  return out;
}

}  // namespace lbb
