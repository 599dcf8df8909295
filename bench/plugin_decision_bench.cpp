// Decision cost of a balancer plugin against the built-in it reproduces (issue 51): greedy and
// examples/balancers/greedy_plugin.c through `dynamic: plugin`, per decision at P = 16, 1,024 and
// 65,536 processors, 8 modules each, random costs, block owners. Goal: the plugin within 1.2x.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "balancers/between_steps/greedy.h"
#include "balancers/between_steps/plugin.h"
#include "balancers/load_snapshot.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"

namespace lbb {
namespace {

LoadSnapshot greedy_loads(int processors) {
  LoadSnapshot s;
  const int modules = 8 * processors;
  std::mt19937_64 rng(51);
  std::uniform_real_distribution<double> cost(0.5, 1.5);
  for (int m = 0; m < modules; ++m) s.cost.push_back(cost(rng));
  s.bytes.assign(modules, 4096);
  s.speed.assign(processors, 1.0);
  s.owner = block_owners(modules, processors);
  s.step = 1;
  return s;
}

void decide_often(benchmark::State& state, Balancer& balancer) {
  const int processors = static_cast<int>(state.range(0));
  const LoadSnapshot s = greedy_loads(processors);
  const Topology topology(TopologyKind::kRing, processors);  // complete: P^2 neighbours
  for (auto _ : state) benchmark::DoNotOptimize(balancer.decide(s.view(topology)));
  state.counters["modules"] = static_cast<double>(s.cost.size());
}

void BM_GreedyBuiltin(benchmark::State& state) {
  GreedyBalancer greedy(0.05);
  decide_often(state, greedy);
}

void BM_GreedyPlugin(benchmark::State& state) {
  const char* dir = std::getenv("LBB_BUILD_DIR");
  const std::string path = std::string(dir ? dir : "build") + "/plugins/libgreedy_plugin.so";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError((path + " not built (set LBB_BUILD_DIR)").c_str());
    return;
  }
  PluginBalancer plugin(path, "min_gain=0.05");
  decide_often(state, plugin);
}

BENCHMARK(BM_GreedyBuiltin)->Arg(16)->Arg(1024)->Arg(65536)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GreedyPlugin)->Arg(16)->Arg(1024)->Arg(65536)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace lbb
