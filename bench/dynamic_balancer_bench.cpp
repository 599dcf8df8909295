// Decision cost of every dynamic balancer for P = 4 ... 1024 processors on 1e5 modules, next to
// a reference step that only touches the 1e5 modules' records the way an executor's step does:
// the counter x_touch_step reads how many such steps one decision costs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/between_steps/redistribution.h"
#include "balancers/load_snapshot.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "core/weight_distribution.h"
#include "harness/stats/sample_summary.h"

namespace lbb {
namespace {

constexpr int kModules = 100000;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// What a step does per module besides running it: scale its measured time into the cost
// record and add it to its owner's load.
void touch_modules(const std::vector<double>& wall, const std::vector<int>& owner,
                   std::vector<double>& cost, std::vector<double>& load) {
  std::fill(load.begin(), load.end(), 0.0);
  for (int m = 0; m < kModules; ++m) {
    cost[m] = wall[m] * 0.98;
    load[owner[m]] += cost[m];
  }
  benchmark::DoNotOptimize(load.data());
  benchmark::ClobberMemory();
}

struct TouchData {
  std::vector<double> wall = draw_weights(WeightDistribution::kUniform, kModules, 0, 5);
  std::vector<int> owner = block_owners(kModules, 64);
  std::vector<double> cost = std::vector<double>(kModules);
  std::vector<double> load = std::vector<double>(64);
};

// Median seconds of the reference step, measured once per process.
double touch_step_seconds() {
  static const double seconds = [] {
    TouchData d;
    std::vector<double> runs;
    for (int r = 0; r < 51; ++r) {
      const double t0 = now();
      touch_modules(d.wall, d.owner, d.cost, d.load);
      runs.push_back(now() - t0);
    }
    return stats::median(runs);
  }();
  return seconds;
}

void BM_TouchStep(benchmark::State& state) {
  TouchData d;
  for (auto _ : state) touch_modules(d.wall, d.owner, d.cost, d.load);
  state.counters["modules"] = kModules;
}
BENCHMARK(BM_TouchStep)->Unit(benchmark::kMicrosecond);

// A measured step of a chain-structured workload on a chain of P processors: costs with
// truncated-normal spread (Iqbal, Saltz & Bokhari 1986's model) and a hot region three times as
// costly, so that every balancer finds something to do.
struct MeasuredStep : LoadSnapshot {
  Topology topology;
  explicit MeasuredStep(int processors) : topology(TopologyKind::kChain, processors) {
    cost = draw_weights(WeightDistribution::kTruncatedNormal, kModules, 0.5, 11);
    speed.assign(processors, 1.0);
    bytes.assign(kModules, 4096);
    owner = block_owners(kModules, processors);
    for (int m = 0; m < kModules / 20; ++m) cost[m] *= 3;
    busy = processor_loads(owner, cost, speed);
    structure = ModuleStructure::kChain;
    step = 7;
  }
  LoadView view() const { return LoadSnapshot::view(topology); }
};

void BM_Decide(benchmark::State& state, const std::string& name) {
  const int processors = static_cast<int>(state.range(0));
  if (name == "redistribution" &&
      !find_balancer(CompleteRedistribution::partitioner_for(ModuleStructure::kChain))) {
    state.SkipWithError("needs the static partitioner optimal_chain, not registered yet");
    return;
  }
  const MeasuredStep step(processors);
  const LoadView view = step.view();
  auto balancer = make_balancer(name, Params{});
  double total = 0;
  int acted = 0, phases = 0;
  for (auto _ : state) {
    const double t0 = now();
    Decision d = balancer->decide(view);
    const double t = now() - t0;
    benchmark::DoNotOptimize(d.owner.data());
    state.SetIterationTime(t);
    total += t;
    acted = d.act;
    phases = d.phases;
  }
  const double mean = total / static_cast<double>(state.iterations());
  state.counters["acted"] = acted;
  state.counters["phases"] = phases;
  state.counters["x_touch_step"] = mean / touch_step_seconds();
}

const bool registered = [] {
  for (const auto& info : balancer_registry()) {
    if (info.kind() != BalancerKind::kDynamic || info.name == "none" || !info.make) continue;
    benchmark::RegisterBenchmark(("BM_Decide/" + info.name).c_str(), BM_Decide, info.name)
        ->ArgName("P")
        ->RangeMultiplier(4)
        ->Range(4, 1024)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
}  // namespace lbb
