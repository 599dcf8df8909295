// Decision cost of a user's balancer against the built-in it reproduces (issue 51): greedy,
// examples/balancers/greedy_plugin.c through `dynamic: plugin` and examples/balancers/greedy.py
// through `dynamic: python`, per decision at P = 16, 1,024 and 65,536 processors, 8 modules
// each, random costs, block owners, each decided alternately with the built-in on one view (the
// ratio counter). Goals: the plugin within 1.2x; the script within 2x plus a fixed overhead,
// BM_PythonCall's (a function that returns None: the view's arrays, the call).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "balancers/between_steps/greedy.h"
#include "balancers/between_steps/plugin.h"
#include "balancers/between_steps/python.h"
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

std::string source_file(const std::string& relative) {
  const char* dir = std::getenv("LBB_SOURCE_DIR");
  return std::string(dir ? dir : ".") + "/" + relative;
}

// The user's balancer and the built-in decided alternately on the same view, each timed on its
// own: the counters builtin_us and user_us per decision and their ratio, side by side in one run.
void versus_builtin(benchmark::State& state, Balancer& user) {
  const int processors = static_cast<int>(state.range(0));
  const LoadSnapshot s = greedy_loads(processors);
  const Topology topology(TopologyKind::kRing, processors);
  GreedyBalancer greedy(0.05);
  using Clock = std::chrono::steady_clock;
  Clock::duration builtin{}, other{};
  for (auto _ : state) {
    const auto t0 = Clock::now();
    benchmark::DoNotOptimize(greedy.decide(s.view(topology)));
    const auto t1 = Clock::now();
    benchmark::DoNotOptimize(user.decide(s.view(topology)));
    builtin += t1 - t0;
    other += Clock::now() - t1;
  }
  const double n = static_cast<double>(state.iterations());
  const double b = std::chrono::duration<double, std::micro>(builtin).count() / n;
  const double u = std::chrono::duration<double, std::micro>(other).count() / n;
  state.counters["builtin_us"] = b;
  state.counters["user_us"] = u;
  state.counters["ratio"] = u / b;
  state.counters["modules"] = static_cast<double>(s.cost.size());
}

void BM_GreedyPluginVsBuiltin(benchmark::State& state) {
  const char* dir = std::getenv("LBB_BUILD_DIR");
  const std::string path = std::string(dir ? dir : "build") + "/plugins/libgreedy_plugin.so";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError((path + " not built (set LBB_BUILD_DIR)").c_str());
    return;
  }
  PluginBalancer plugin(path, "", "", 0.05);
  versus_builtin(state, plugin);
}

void BM_GreedyPythonVsBuiltin(benchmark::State& state) {
  PythonBalancer script(source_file("examples/balancers/greedy.py"), "balance", "", "", 0.05);
  versus_builtin(state, script);
}

// The fixed overhead of a Python decision: the view as arrays and a call that answers None.
void BM_PythonCall(benchmark::State& state) {
  const int processors = static_cast<int>(state.range(0));
  const LoadSnapshot s = greedy_loads(processors);
  const Topology topology(TopologyKind::kRing, processors);
  PythonBalancer script(source_file("bench/scripts/keep.py"), "keep", "");
  for (auto _ : state) benchmark::DoNotOptimize(script.decide(s.view(topology)));
}

BENCHMARK(BM_GreedyPluginVsBuiltin)
    ->Arg(16)
    ->Arg(1024)
    ->Arg(65536)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_GreedyPythonVsBuiltin)
    ->Arg(16)
    ->Arg(1024)
    ->Arg(65536)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_PythonCall)->Arg(16)->Arg(1024)->Arg(65536)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace lbb
