// Issue 15 item 7: the simulate executor at scale, 1024 virtual processors x 1e5 modules x 1000
// steps of drifting costs under a dynamic balancer (diffusion on a 32 x 32 mesh), goal: under
// 30 s on the 2-core development machine. Counters: steps_per_s and s_per_step, the seconds a
// whole run takes (real_time) and, side by side in the same binary, the balancer's share
// (sim_decision, measured CPU time per step summed over its one decider).
#include <benchmark/benchmark.h>

#include <string>

#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"

namespace lbb {
namespace {

class Totals final : public StepSink {
 public:
  void on_step(const StepRecord& r) override {
    ++steps;
    decision += r.balance;
    migrations += r.migrations;
  }
  int steps = 0;
  double decision = 0;
  long long migrations = 0;
};

void BM_Simulate(benchmark::State& state) {
  const int processors = static_cast<int>(state.range(0)), steps = static_cast<int>(state.range(1));
  const std::string yaml =
      "name: scale\n"
      "workload: { kind: synthetic, modules: 100000, model: drift, drift_sd: 0.02, seed: 1 }\n"
      "platform: { processors: " +
      std::to_string(processors) +
      ", topology: mesh2d }\n"
      "execution: { executor: simulate, steps: " +
      std::to_string(steps) +
      " }\n"
      "balancers: [ { dynamic: diffusion } ]\n";
  const Config config = load_config_text(yaml, "scale.yaml");
  const RunSpec& spec = config.runs.front();
  const WorkloadInfo& info = *find_workload_kind(spec.workload);
  Totals totals;
  for (auto _ : state) {
    totals = Totals{};
    choose_executor(spec, info).make(spec, info)->run(totals);
  }
  state.counters["steps"] = totals.steps;
  state.counters["decision_s"] = totals.decision;
  state.counters["migrations"] = static_cast<double>(totals.migrations);
  state.counters["steps_per_s"] =
      benchmark::Counter(totals.steps * state.iterations(), benchmark::Counter::kIsRate);
}
// The size first, then a tenth of the steps for a quick look.
BENCHMARK(BM_Simulate)
    ->Args({1024, 1000})
    ->Args({1024, 100})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

}  // namespace
}  // namespace lbb
