// Issue 37 item 4: the simulator at scale, 1,048,576 virtual processors x 100,000,000 modules x
// 100 steps under the gossip and the multilevel balancers, goal: under 60 s and 16 GB on the
// 2-core development machine; and how its time grows with processors and modules.
// BM_ScaleSim runs harness/sim/scale_sim.h (multilevel on the chain's ranges, gossip on its
// holdings or through its ordinary decide); BM_OrdinarySim the ordinary simulator on the same
// model at sizes it can hold, side by side. Each size should run in its own process (peak RSS
// is the process's): bench/scale/sim_scale.sh does. Counters: wall and CPU seconds of the whole
// run (costs drawn, partition, steps), setup_s of it, peak RSS, the 1-minute load average at the
// end, the balancer's CPU seconds, and ns per module-step and per processor-step.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "harness/base/clock.h"
#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "harness/sim/scale_sim.h"

namespace lbb {
namespace {

// Argument 0 of both benchmarks: gossip at its defaults (log2 P rounds of fanout 2, each
// processor keeping 32 underloaded processors at most), 1 multilevel, 2 gossip of fanout 4 (log4 P
// rounds) keeping 32, 3 gossip keeping all it hears (P^2 knowledge in all, the default before
// knowledge was bounded). BM_ScaleSim runs multilevel on the chain's ranges and the bounded
// gossips on holdings kept across steps (the ordinary balancers' decisions,
// tests/scale_sim_test.cpp), the unbounded one through decide.
const char* const kBalancers[] = {"gossip", "multilevel", "gossip", "gossip"};

Params given(std::int64_t kind) {
  Params params;
  if (kind == 2) params.set("fanout", std::int64_t{4}), params.set("knowledge", std::int64_t{32});
  if (kind == 3) params.set("knowledge", std::int64_t{0});
  return params;
}

double process_cpu() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return seconds_of({u.ru_utime.tv_sec, u.ru_utime.tv_usec * 1000}) +
         seconds_of({u.ru_stime.tv_sec, u.ru_stime.tv_usec * 1000});
}

double peak_rss_gib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / (1024.0 * 1024.0);  // ru_maxrss is in KiB
}

// Costs as the synthetic workload's default model draws them: truncated normal, mean 1 ms,
// relative spread 0.5, redrawn below zero.
std::vector<double> draw_costs(std::int64_t modules) {
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal(1e-3, 0.5e-3);
  std::vector<double> cost(modules);
  for (double& c : cost) do
      c = normal(rng);
    while (c <= 0);
  return cost;
}

struct Figures {
  double wall = 0, cpu = 0, setup = 0, decide = 0;
  double first_over_ideal = 0, last_over_ideal = 0;  // the first and last steps' makespans
  std::int64_t migrations = 0, moving_steps = 0;     // steps whose decision moved modules
};

void report(benchmark::State& state, const Figures& f, double processors, double modules,
            int steps) {
  double load[1] = {0};
  getloadavg(load, 1);
  state.counters["wall_s"] = f.wall;
  state.counters["cpu_s"] = f.cpu;
  state.counters["setup_s"] = f.setup;
  state.counters["decide_cpu_s"] = f.decide;
  state.counters["migrations"] = static_cast<double>(f.migrations);
  state.counters["peak_rss_GiB"] = peak_rss_gib();
  state.counters["load1"] = load[0];
  state.counters["ns_per_module_step"] = 1e9 * f.wall / (modules * steps);
  state.counters["ns_per_processor_step"] = 1e9 * f.wall / (processors * steps);
}

void BM_ScaleSim(benchmark::State& state) {
  const char* balancer = kBalancers[state.range(0)];
  const auto processors = static_cast<int>(state.range(1));
  const std::int64_t modules = state.range(2);
  const auto steps = static_cast<int>(state.range(3));
  Figures f;
  for (auto _ : state) {
    const double w0 = wall_now(), c0 = process_cpu();
    const std::vector<double> cost = draw_costs(modules);
    const Topology chain(TopologyKind::kChain, processors);
    ScaleSim sim(cost, std::vector<double>(processors, 1.0), chain);
    const auto dynamic = make_balancer(balancer, given(state.range(0)));
    const MultilevelDiffusion multilevel;  // on ranges, at the registry's default min_gain
    const double min_gain =
        resolve_params(find_balancer("multilevel")->params, {}).real("min_gain");
    const GossipSettings gossip =
        gossip_settings(resolve_params(find_balancer("gossip")->params, given(state.range(0))));
    const bool on_holdings = state.range(0) == 0 || state.range(0) == 2;
    const double ideal = std::accumulate(cost.begin(), cost.end(), 0.0) / processors;
    f = Figures{};
    f.setup = wall_now() - w0;
    for (int s = 0; s < steps; ++s) {
      const ScaleStep step = state.range(0) == 1 ? sim.step(s, multilevel, min_gain)
                             : on_holdings       ? sim.step(s, gossip)
                                                 : sim.step(s, *dynamic);
      f.decide += step.decide_cpu;
      f.migrations += step.migrations;
      f.moving_steps += step.migrations > 0;
      (s == 0 ? f.first_over_ideal : f.last_over_ideal) = step.makespan / ideal;
    }
    f.wall = wall_now() - w0;
    f.cpu = process_cpu() - c0;
  }
  state.SetLabel(balancer);
  report(state, f, processors, static_cast<double>(modules), steps);
  state.counters["first_over_ideal"] = f.first_over_ideal;
  state.counters["last_over_ideal"] = f.last_over_ideal;
  state.counters["moving_steps"] = static_cast<double>(f.moving_steps);
}

class Totals final : public StepSink {
 public:
  void on_step(const StepRecord& r) override { migrations += r.migrations; }
  std::int64_t migrations = 0;
};

// The ordinary simulator on the same model (the synthetic workload's own draw of it).
void BM_OrdinarySim(benchmark::State& state) {
  const char* balancer = kBalancers[state.range(0)];
  const auto processors = static_cast<int>(state.range(1));
  const std::int64_t modules = state.range(2);
  const auto steps = static_cast<int>(state.range(3));
  const std::string yaml =
      "name: scale\nworkload: { kind: synthetic, modules: " + std::to_string(modules) +
      " }\nplatform: { processors: " + std::to_string(processors) +
      ", topology: chain }\nexecution: { executor: simulate, sim_decision: modelled, steps: " +
      std::to_string(steps) + " }\nbalancers: [ { dynamic: " + balancer +
      (state.range(0) == 2   ? ", fanout: 4, knowledge: 32"
       : state.range(0) == 3 ? ", knowledge: 0"
                             : "") +
      " } ]\n";
  const Config config = load_config_text(yaml, "scale.yaml");
  const RunSpec& spec = config.runs.front();
  const WorkloadInfo& info = *find_workload_kind(spec.workload);
  Figures f;
  for (auto _ : state) {
    const double w0 = wall_now(), c0 = process_cpu();
    Totals totals;
    choose_executor(spec, info).make(spec, info)->run(totals);
    f.wall = wall_now() - w0;
    f.cpu = process_cpu() - c0;
    f.migrations = totals.migrations;
  }
  state.SetLabel(balancer);
  report(state, f, processors, static_cast<double>(modules), steps);
}

// Arguments: balancer (0 gossip, 1 multilevel, 2 gossip of fanout 4 keeping 32, 3 gossip keeping
// all), processors, modules, steps. The growth series multiplies processors and modules by 4 a
// size up to the full one (gossip keeping all: to 16,384 processors, its P^2 knowledge's limit
// here); then, for the scale paths, processors x4 at 25,000,000 modules and modules x4 at 65,536
// processors (less the sizes the first series ran).
// bench/scale/sim_scale.sh picks one size per process with --benchmark_filter.
void scale_sizes(benchmark::internal::Benchmark* b, bool ordinary) {
  for (int balancer : {1, 0, 2, 3})
    for (std::int64_t k = 0, p = 4096, m = 390625; k < 5; ++k, p *= 4, m *= 4) {
      if (ordinary && m > (1 << 24)) break;  // the synthetic workload's largest
      if (balancer == 3 && p > 16384) break;
      b->Args({balancer, p, m, 10});
    }
  if (ordinary) return;
  for (int balancer : {1, 0, 2}) b->Args({balancer, 1048576, 100000000, 100});
  for (int balancer : {1, 0, 2}) {
    for (std::int64_t p : {16384, 65536, 1048576}) b->Args({balancer, p, 25000000, 10});
    for (std::int64_t m : {1562500, 100000000}) b->Args({balancer, 65536, m, 10});
  }
}
BENCHMARK(BM_ScaleSim)->Apply([](auto* b) {
                        scale_sizes(b, false);
                      }) -> Unit(benchmark::kSecond) -> Iterations(1) -> UseRealTime();
BENCHMARK(BM_OrdinarySim)->Apply([](auto* b) {
                           scale_sizes(b, true);
                         }) -> Unit(benchmark::kSecond) -> Iterations(1) -> UseRealTime();

}  // namespace
}  // namespace lbb
