#include "harness/sim/simulate_executor.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "core/text.h"
#include "harness/base/recorded_runs.h"
#include "harness/exec/async_executor.h"
#include "harness/sim/schedule_model.h"
#include "harness/sim/sim_async_run.h"
#include "harness/sim/sim_run.h"
#include "harness/sim/tree_execution.h"

namespace lbb {

namespace {

// The speeds the recorded run had (its costs over them are nominal), which a simulation of other
// speeds replaying it need not share; a set older than the `speeds` column: the simulation's.
std::vector<double> recorded_speeds(const RecordedRuns& set, const std::string& run,
                                    std::vector<double> fallback) {
  for (const RunRecord& info : set.runs()) {
    if (info.run != run || info.speeds.empty()) continue;
    const double processors = static_cast<double>(info.processors);
    std::vector<double> speeds;
    std::istringstream in(info.speeds);
    for (std::string item; std::getline(in, item, ',');) {
      char* end = nullptr;
      const double x = std::strtod(item.c_str(), &end);
      if (item.empty() || *end != '\0' || !std::isfinite(x) || x <= 0) break;
      speeds.push_back(x);
    }
    if (static_cast<double>(speeds.size()) != processors)
      throw std::invalid_argument("simulate: run " + printable(run) + ": speeds '" +
                                  printable(info.speeds.substr(0, 200)) + "' are not " +
                                  "its processors' count of positive numbers");
    return speeds;
  }
  return fallback;
}

}  // namespace

std::vector<StepMetric> simulate_metrics() {
  return {
      {"sim_migration", "s, simulate: latency + bytes / bandwidth charged for the step's copies"},
      {"sim_synchronisation",
       "s, simulate: synchronisation and instruction messages of in-step schemes (Zaki et al.)"},
      {"sim_decision", "s, simulate: balancer decision time charged, measured or modelled"},
      {"sim_contention", "s, simulate: busy time the contention model added"},
      {"sim_exchange",
       "s, simulate: the application's exchange (sim_exchange: all), summed over processors; "
       "replaying an mpi run, the ranks' exchange and decision broadcast (the step's serial part)"},
  };
}

std::shared_ptr<CostStream> SimulateExecutor::stream_for(Workload& workload,
                                                         const ExecutionPlan& plan) {
  if (costs_) return costs_;
  if (auto* synthetic = dynamic_cast<SyntheticCosts*>(&workload))
    return std::make_shared<SyntheticStream>(*synthetic);
  if (auto* source = dynamic_cast<const CostSource*>(&workload))
    return source->stream(plan.processors, plan.initial != nullptr);
  if (std::string why = recorded_costs_problem(settings_); !why.empty())
    throw std::invalid_argument(why);
  if (!open_recorded_) throw std::logic_error("simulate: no reader of recorded runs was given");
  const std::unique_ptr<RecordedRuns> opened = open_recorded_(settings_.replay_set);
  const RecordedRuns& set = *opened;
  const int recorded =
      settings_.replay_processors > 0 ? settings_.replay_processors : plan.processors;
  const std::string run = recorded_run_for(set, settings_.replay_run, "", recorded);
  auto stream = std::make_shared<RecordedStream>(set, run, recorded_speeds(set, run, plan.speed),
                                                 workload.phases());
  if (stream->modules() != workload.module_count())
    throw std::invalid_argument("simulate: run " + run + " has " +
                                std::to_string(stream->modules()) + " modules, the workload " +
                                std::to_string(workload.module_count()));
  return stream;
}

ExecutionResult SimulateExecutor::run(Workload& workload, ModuleStore&, const ExecutionPlan& plan,
                                      StepSink& sink) {
  const std::shared_ptr<CostStream> costs = stream_for(workload, plan);
  if (schedule_.kind != InStepSchedule::kAssigned)
    return run_simulated_steps(workload, plan, sink, settings_, *costs, &schedule_);
  if (!settings_.asynchronous) return run_simulated_steps(workload, plan, sink, settings_, *costs);
  SimAsyncOutcome out = run_sim_async(workload, plan, sink, settings_, *costs);
  async_ = out.figures;
  return std::move(out.result);
}

// Asynchronous runs: the async executors' metrics first (run_sim_async appends the charges).
std::vector<StepMetric> SimulateExecutor::metrics() const {
  std::vector<StepMetric> all =
      settings_.asynchronous ? async_metrics() : std::vector<StepMetric>{};
  for (auto& m : simulate_metrics()) all.push_back(std::move(m));
  if (schedule_.kind == InStepSchedule::kChunked && schedule_.technique == LoopTechnique::kAuto4OMP)
    all.push_back(schedule_choice_metric());
  return all;
}

std::vector<WorkloadAttribute> SimulateExecutor::attributes() const {
  std::vector<WorkloadAttribute> all = {
      {"sim_latency", settings_.latency},
      {"sim_bandwidth", settings_.bandwidth},
      {"sim_decision_modelled", settings_.measured_decisions ? 0.0 : 1.0},
      {"sim_decision_seconds", settings_.decision_seconds},
      {"sim_contention", settings_.contention},
      {"sim_exchange_all", settings_.exchange_all ? 1.0 : 0.0}};
  if (settings_.asynchronous) {
    all.push_back({"utilization", async_.utilization});
    all.push_back({"modules_moved_per_step", async_.moves_per_step});
  }
  return all;
}

SimSettings simulation_settings(const RunSpec& spec) {
  SimSettings settings = spec.sim;
  const BalancerInfo* dynamic = find_balancer(spec.balancer.dynamic_name);
  if (dynamic && dynamic->role == BalancerRole::kAsync) settings.asynchronous = true;
  return settings;
}

std::string recorded_costs_problem(const SimSettings& settings) {
  if (!settings.replay_set.empty()) return "";
  return "simulate: a workload with a kernel needs recorded costs (execution.replay_set), or "
         "use workload kind synthetic";
}

std::string simulated_run_problem(const RunSpec& spec, const WorkloadInfo& workload) {
  if (std::string why = simulation_problem(spec); !why.empty()) return why;
  return workload.simulated_only ? "" : recorded_costs_problem(simulation_settings(spec));
}

std::string simulation_problem(const RunSpec& spec) {
  const SimSettings settings = simulation_settings(spec);
  if (!spec.balancer.schedule_name.empty()) {
    const ScheduleInfo* schedule = find_schedule(spec.balancer.schedule_name);
    if (schedule)
      if (std::string why = schedule_model_problem(schedule->kind); !why.empty()) return why;
    if (settings.asynchronous || settings.contention > 0)
      return "a simulated loop schedule runs bulk-synchronous steps without contention "
             "(execution.sim_async and sim_contention are for balancers)";
  }
  if (settings.asynchronous && settings.contention > 0) return kAsyncContentionProblem;
  const BalancerInfo* dynamic = find_balancer(spec.balancer.dynamic_name);
  if (settings.exchange_all && (settings.asynchronous || !spec.balancer.schedule_name.empty() ||
                                (dynamic && dynamic->role == BalancerRole::kInStep)))
    return "execution.sim_exchange is charged on bulk-synchronous steps balanced between steps, "
           "not with asynchronous steps, loop schedules or in-step balancers";
  return "";
}

}  // namespace lbb
