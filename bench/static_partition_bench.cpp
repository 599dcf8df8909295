// Cost of the static partitioners over m = 1e2..1e6 modules and P = 4..1024 processors, on
// the weight model of Iqbal, Saltz & Bokhari 1986 (truncated normal, mean 1, sd 1). Counters: the
// bottleneck, its ratio to the ideal W/P and to the optimal chain partition.
// BM_BokhariVsOptimalChain times the reference and the fast exact method side by side on one
// instance and reports their ratio.
#include <benchmark/benchmark.h>

#include <map>
#include <numeric>

#include "balancers/partition/binary_dissection.h"
#include "balancers/partition/greedy_probe.h"
#include "balancers/partition/lpt.h"
#include "balancers/partition/optimal_chain.h"
#include "balancers/partition/optimal_chain_bokhari.h"
#include "balancers/partition/orb.h"
#include "core/weight_distribution.h"
#include "harness/base/clock.h"

namespace lbb {
namespace {

const std::vector<double>& bench_weights(int m) {
  static std::map<int, std::vector<double>> cache;
  auto it = cache.find(m);
  if (it == cache.end())
    it = cache.emplace(m, draw_weights(WeightDistribution::kTruncatedNormal, m, 1.0, 1986)).first;
  return it->second;
}

const std::vector<double>& bench_coords(int m) {  // 2-D, uniform in the unit square
  static std::map<int, std::vector<double>> cache;
  auto it = cache.find(m);
  if (it == cache.end()) {
    std::vector<double> c = draw_weights(WeightDistribution::kUniform, 2 * m, 0, 7);
    for (auto& x : c) x /= 2;
    it = cache.emplace(m, std::move(c)).first;
  }
  return it->second;
}

void set_counters(benchmark::State& state, const std::vector<double>& w, int p, double bottleneck) {
  const double ideal = std::accumulate(w.begin(), w.end(), 0.0) / p;
  state.counters["bottleneck"] = bottleneck;
  state.counters["ratio_to_ideal"] = bottleneck / ideal;
  state.counters["ratio_to_optimal"] =
      bottleneck / optimal_chain(w, std::vector<double>(p, 1.0)).bottleneck;
}

template <class Partition>
void run(benchmark::State& state, Partition partition) {
  const int m = static_cast<int>(state.range(0));
  const int p = static_cast<int>(state.range(1));
  const std::vector<double>& w = bench_weights(m);
  const std::vector<double> s(p, 1.0);
  double result = 0;
  for (auto _ : state) {
    result = partition(w, s, m);
    benchmark::ClobberMemory();
  }
  set_counters(state, w, p, result);
}

void BM_OptimalChain(benchmark::State& state) {
  run(state, [](const auto& w, const auto& s, int) { return optimal_chain(w, s).bottleneck; });
}
void BM_OptimalChainBokhari(benchmark::State& state) {
  run(state,
      [](const auto& w, const auto& s, int) { return optimal_chain_bokhari(w, s).bottleneck; });
}
void BM_BinaryDissection(benchmark::State& state) {
  run(state, [](const auto& w, const auto& s, int) { return binary_dissection(w, s).bottleneck; });
}
void BM_GreedyProbe(benchmark::State& state) {
  run(state, [](const auto& w, const auto& s, int) { return greedy_probe(w, s, 1e-9).bottleneck; });
}
void BM_Lpt(benchmark::State& state) {
  run(state,
      [](const auto& w, const auto& s, int) { return bottleneck(lpt_partition(w, s), w, s); });
}
void BM_Orb(benchmark::State& state) {
  run(state, [](const auto& w, const auto& s, int m) {
    return bottleneck(orb_partition(w, s, bench_coords(m), 2), w, s);
  });
}

// The reference and the fast exact method on the same instance, timed side by side by the
// thread's CPU clock in each repetition: counters bokhari_s, optimal_chain_s, their ratio
// (medians over the repetitions, with spread) and same_bottleneck (1 when bit-identical).
void BM_BokhariVsOptimalChain(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0));
  const int p = static_cast<int>(state.range(1));
  const std::vector<double>& w = bench_weights(m);
  const std::vector<double> s(p, 1.0);
  double bokhari_s = 0;
  double fast_s = 0;
  bool same = true;
  for (auto _ : state) {
    const double t0 = thread_cpu_now();
    const ChainPartition reference = optimal_chain_bokhari(w, s);
    const double t1 = thread_cpu_now();
    // The fast method is ~1e4 times quicker: repeat it for a measurable time.
    constexpr int kRepeats = 2000;
    double fast_bottleneck = 0;
    for (int r = 0; r < kRepeats; ++r) {
      fast_bottleneck = optimal_chain(w, s).bottleneck;
      benchmark::ClobberMemory();
    }
    const double t2 = thread_cpu_now();
    bokhari_s += t1 - t0;
    fast_s += (t2 - t1) / kRepeats;
    same = same && fast_bottleneck == reference.bottleneck;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["bokhari_s"] = bokhari_s / n;
  state.counters["optimal_chain_s"] = fast_s / n;
  state.counters["ratio"] = bokhari_s / fast_s;
  state.counters["same_bottleneck"] = same ? 1 : 0;
}

// optimal_chain against its floor, one prefix-sum pass over the same weights into a buffer
// allocated once, timed side by side by the thread's CPU clock in each repetition:
// vs_prefix_sum = optimal_chain's time / the pass's time.
void BM_OptimalChainVsPrefixSum(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0));
  const int p = static_cast<int>(state.range(1));
  const std::vector<double>& w = bench_weights(m);
  const std::vector<double> s(p, 1.0);
  std::vector<double> prefix(w.size());
  double chain_s = 0, scan_s = 0, bottleneck = 0;
  for (auto _ : state) {
    const double t0 = thread_cpu_now();
    std::inclusive_scan(w.begin(), w.end(), prefix.begin());
    benchmark::DoNotOptimize(prefix.data());
    const double t1 = thread_cpu_now();
    bottleneck = optimal_chain(w, s).bottleneck;
    benchmark::DoNotOptimize(bottleneck);
    const double t2 = thread_cpu_now();
    scan_s += t1 - t0;
    chain_s += t2 - t1;
  }
  state.counters["optimal_chain_ms"] = chain_s / state.iterations() * 1e3;
  state.counters["prefix_sum_ms"] = scan_s / state.iterations() * 1e3;
  state.counters["vs_prefix_sum"] = chain_s / scan_s;
  set_counters(state, w, p, bottleneck);
}
BENCHMARK(BM_OptimalChainVsPrefixSum)
    ->Args({1000000, 1024})
    ->Iterations(20)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

const std::vector<std::int64_t> kModules = {100, 1000, 10000, 100000, 1000000};
const std::vector<std::int64_t> kProcessors = {4, 16, 64, 256, 1024};

BENCHMARK(BM_OptimalChain)->ArgsProduct({kModules, kProcessors})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BinaryDissection)->ArgsProduct({kModules, kProcessors})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GreedyProbe)->ArgsProduct({kModules, kProcessors})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lpt)->ArgsProduct({kModules, kProcessors})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Orb)->ArgsProduct({kModules, kProcessors})->Unit(benchmark::kMillisecond);
// O(m^3 P): only up to m = 400.
BENCHMARK(BM_OptimalChainBokhari)
    ->ArgsProduct({{100, 200, 400}, {4, 16, 64}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BokhariVsOptimalChain)
    ->Args({400, 16})
    ->Iterations(1)
    ->Repetitions(7)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lbb
