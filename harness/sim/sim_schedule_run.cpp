#include "harness/sim/sim_schedule_run.h"

#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/base/clock.h"
#include "harness/exec/step_recorder.h"

namespace lbb {

namespace {

class SimScheduleRun {
 public:
  SimScheduleRun(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                 const SimSettings& settings, CostStream& costs, const ScheduleChoice& schedule)
      : workload_(workload),
        plan_(plan),
        sink_(sink),
        settings_(settings),
        costs_(costs),
        P_(plan.processors),
        M_(workload.module_count()),
        phases_(workload.phases()),
        calculator_(schedule.technique, schedule.params, plan.speed),
        emulation_(plan.speed, plan.external_load, 0.0),
        recorder_(plan.speed, phases_),
        level_(P_, 0.0),
        rate_(P_, 1.0),
        runner_(static_cast<std::size_t>(phases_) * M_, 0),
        ran_(runner_.size(), 0.0) {
    if (static_cast<int>(plan.speed.size()) != P_) throw std::invalid_argument("speeds != P");
    const int total = plan.warmup + plan.steps;
    if (costs.steps() >= 0 && costs.steps() < total)
      throw std::invalid_argument("the cost source has " + std::to_string(costs.steps()) +
                                  " steps; the run needs " + std::to_string(total));
  }

  ExecutionResult run() {
    const double w0 = wall_now();
    for (int s = 0; s < plan_.warmup + plan_.steps; ++s) {
      start_step();
      for (int ph = 0; ph < phases_; ++ph) run_phase(s, ph);
      close_step(s);
    }
    result_.steps_run = plan_.warmup + plan_.steps;
    for (int ph = 0; ph < phases_; ++ph)
      result_.final_phase_owner.emplace_back(runner_.begin() + ph * M_,
                                             runner_.begin() + (ph + 1) * M_);
    result_.final_owner = result_.final_phase_owner.front();
    result_.run_wall = wall_now() - w0;
    return std::move(result_);
  }

 private:
  // External load as real runs draw it (harness/base/platform_emulation.h), at the modelled time.
  void start_step() {
    for (int p = 0; p < P_; ++p) {
      level_[p] = emulation_.load_at(p, clock_);
      rate_[p] = plan_.speed[p] / (1.0 + level_[p]);
    }
    recorder_.clear();
    charged_ = 0;
  }

  // The processors, earliest clock first (the lower id on a tie), each reporting the chunk it
  // just ended and asking for its next one, until none is left.
  void run_phase(int s, int ph) {
    const std::vector<double>& nominal = costs_.nominal(s, ph);
    if (static_cast<int>(nominal.size()) != M_)
      throw std::logic_error("the cost source gave " + std::to_string(nominal.size()) +
                             " costs for " + std::to_string(M_) + " modules");
    calculator_.start(M_);
    using Event = std::pair<double, int>;  // (clock, processor)
    std::priority_queue<Event, std::vector<Event>, std::greater<>> idle;
    std::vector<ChunkTiming> pending(P_);
    std::vector<double> busy(P_, 0.0);
    for (int p = 0; p < P_; ++p) idle.push({0.0, p});
    int next = 0;
    while (!idle.empty()) {
      const auto [clock, p] = idle.top();
      idle.pop();
      if (pending[p].iterations > 0) calculator_.finished(p, pending[p]);
      const int count = calculator_.next(p);
      PhaseTimes& t = recorder_.processor(p).phase[ph];
      if (count == 0) {
        t.busy = busy[p];
        t.finish = clock;
        continue;
      }
      ChunkTiming chunk{count, 0, 0, settings_.latency};
      for (int m = next; m < next + count; ++m) {
        const double seconds = nominal[m] / rate_[p];
        const std::size_t i = static_cast<std::size_t>(ph) * M_ + m;
        runner_[i] = p;
        ran_[i] = seconds;
        chunk.seconds += seconds;
        chunk.square_seconds += seconds * seconds;
      }
      next += count;
      chunk.elapsed += chunk.seconds;
      busy[p] += chunk.seconds;
      charged_ += settings_.latency;
      pending[p] = chunk;
      idle.push({clock + chunk.elapsed, p});
    }
    if (next != M_)  // the technique handed out every module once, or the run fails
      throw std::logic_error("loop schedule handed out " + std::to_string(next) + " of " +
                             std::to_string(M_) + " modules in step " + std::to_string(s));
  }

  // The step's record from the model's state, timed apart from the model (run --costs).
  void close_step(int s) {
    const double c0 = thread_cpu_now();
    for (int p = 0; p < P_; ++p) {
      ProcessorTimes& t = recorder_.processor(p);
      double busy = 0;
      for (const PhaseTimes& phase : t.phase) busy += phase.busy;
      t.busy_wall = t.load.unloaded = busy;
      t.load.loaded = level_[p] * busy;
    }
    StepRecord rec;
    recorder_.close(rec, 0.0, 0.0);
    rec.wall = rec.compute_wall = rec.makespan;  // modelled: no wall clock means anything here
    rec.step = s - plan_.warmup;
    // No kernel ran: the workload's own step metrics are unknown. Then the simulator's charges:
    // migration, synchronisation (the chunk requests), decision, contention, exchange.
    rec.metrics.assign(workload_.step_metrics().size(), std::nan(""));
    for (double x : {0.0, charged_, 0.0, 0.0, 0.0}) rec.metrics.push_back(x);
    if (plan_.record_modules) {
      rec.module_cost.assign(M_, 0.0);
      for (std::size_t i = 0; i < ran_.size(); ++i) rec.module_cost[i % M_] += ran_[i];
      rec.module_owner.assign(runner_.begin(), runner_.begin() + M_);
      if (phases_ > 1) {
        rec.phase_module_cost = ran_;
        rec.phase_module_owner = runner_;
      }
    }
    clock_ += rec.makespan;
    result_.record_build_seconds += thread_cpu_now() - c0;
    if (rec.step >= 0) record_step(sink_, rec, result_.record_seconds);
  }

  Workload& workload_;
  const ExecutionPlan& plan_;
  StepSink& sink_;
  const SimSettings& settings_;
  CostStream& costs_;
  const int P_, M_, phases_;
  ChunkCalculator calculator_;
  const PlatformEmulation emulation_;
  StepRecorder recorder_;
  std::vector<double> level_, rate_;  // per processor: load, speed / (1 + load)
  std::vector<int> runner_;           // [phase][module]: who ran it this step
  std::vector<double> ran_;           // [phase][module]: seconds on its runner
  double charged_ = 0;                // the step's request latencies, summed
  double clock_ = 0;                  // modelled time at the step's start
  ExecutionResult result_;
};

}  // namespace

ExecutionResult run_sim_schedule(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                                 const SimSettings& settings, CostStream& costs,
                                 const ScheduleChoice& schedule) {
  if (schedule.kind != InStepSchedule::kChunked)
    throw std::invalid_argument(
        "simulate: the simulator models the loop self-scheduling "
        "techniques, not the OpenMP runtime's schedules");
  return SimScheduleRun(workload, plan, sink, settings, costs, schedule).run();
}

}  // namespace lbb
