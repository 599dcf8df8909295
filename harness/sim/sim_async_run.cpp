#include "harness/sim/sim_async_run.h"

#include <cmath>
#include <deque>
#include <numeric>
#include <stdexcept>
#include <string>

#include "harness/base/clock.h"
#include "harness/base/platform_emulation.h"

namespace lbb {

namespace {

// AsyncRun's work with no kernel: module costs from the cost source, charges from SimSettings.
// Modules of a chain run up to their distance apart in steps, so the source's steps (asked for
// in order) are kept from the oldest step still open to the newest asked for.
class SimulatedWork final : public AsyncWork {
 public:
  SimulatedWork(const Workload& workload, const ExecutionPlan& plan, const SimSettings& settings,
                CostStream& costs)
      : workload_(workload),
        plan_(plan),
        settings_(settings),
        costs_(costs),
        emulation_(plan.speed, plan.external_load, 0.0),
        load_(plan.processors) {}

  double run_module(int m, int s, int p, double start) override {
    const double level = emulation_.load_at(p, start);
    const double seconds = nominal(m, s) / plan_.speed[p];
    load_[p].loaded += level * seconds;
    load_[p].unloaded += seconds;
    return seconds * (1.0 + level);
  }
  MigrationCharge migrate(int m) override {
    const std::uint64_t bytes = workload_.state_bytes(m);
    return {bytes, settings_.migration_seconds(1, static_cast<double>(bytes))};
  }
  double decision_seconds(double cpu) const override { return settings_.decision_charge(cpu); }
  bool times_decisions() const override { return settings_.measured_decisions; }
  void close_step(int s, double end, ClosedStep& c) override {
    c.serial = 0;
    c.wall = end;  // modelled: no wall clock means anything here
    c.metrics.assign(workload_.step_metrics().size(), std::nan(""));  // no kernel ran
    while (first_ <= s && !rows_.empty()) {
      rows_.pop_front();
      ++first_;
    }
  }
  const LoadTally& load(int p) const override { return load_[p]; }

 private:
  double nominal(int m, int s) {
    while (s >= first_ + static_cast<int>(rows_.size())) {
      const int next = first_ + static_cast<int>(rows_.size());
      const std::vector<double>& row = costs_.nominal(next);
      if (static_cast<int>(row.size()) != workload_.module_count())
        throw std::logic_error("the cost source gave " + std::to_string(row.size()) +
                               " costs for " + std::to_string(workload_.module_count()) +
                               " modules");
      rows_.push_back(row);
    }
    return rows_[static_cast<std::size_t>(s - first_)][static_cast<std::size_t>(m)];
  }

  const Workload& workload_;
  const ExecutionPlan& plan_;
  const SimSettings& settings_;
  CostStream& costs_;
  const PlatformEmulation emulation_;
  std::vector<LoadTally> load_;
  std::deque<std::vector<double>> rows_;
  int first_ = 0;  // the step of rows_.front()
};

double total(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

}  // namespace

SimAsyncOutcome run_sim_async(const Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                              const SimSettings& settings, CostStream& costs) {
  const double w0 = wall_now();
  const ModuleGraph graph = async_dependencies(workload, plan);
  if (settings.contention > 0) throw std::invalid_argument(kAsyncContentionProblem);
  const int steps = plan.warmup + plan.steps;
  if (costs.steps() >= 0 && costs.steps() < steps)
    throw std::invalid_argument("the cost source has " + std::to_string(costs.steps()) +
                                " steps; the run needs " + std::to_string(steps));
  SimAsyncOutcome out;
  const AsyncStart start = start_async(workload, plan, graph, out.result);
  SimulatedWork work(workload, plan, settings, costs);
  AsyncRun run(work, graph, plan.processors, start.owner, steps, start.predictive,
               AsyncOrder::kModelled);
  run.processor(0);  // the whole modelled order on this thread
  run.rethrow_if_failed();
  // The executor's figures after the async ones: the step's copies and decisions as charged (no
  // group synchronisation, contention model or exchange here).
  const auto amend = [](int, StepRecord& r) {
    for (double x : {total(r.proc_migration), 0.0, total(r.proc_balance), 0.0, 0.0})
      r.metrics.push_back(x);
  };
  out.figures = record_async_run(run, plan, 0.0, sink, out.result, amend);
  out.result.run_wall = wall_now() - w0;
  return out;
}

}  // namespace lbb
