// What a loop self-scheduling technique costs its scheduler: one loop of 1e5 modules handed out
// to P processors in turn, each chunk reported back with its times (balancers/in_step/
// loop_schedules.h), outside any lock. Counters: chunks per loop and nanoseconds per chunk.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "balancers/in_step/loop_schedules.h"

namespace lbb {
namespace {

constexpr int kModules = 100000;

void BM_HandOut(benchmark::State& state, const LoopTechniqueInfo& info) {
  const int P = static_cast<int>(state.range(0));
  std::vector<double> speed(P, 1.0);
  speed[0] = 0.5;
  ChunkCalculator c(info.technique, resolve_params(info.params, {}), speed);
  std::int64_t chunks = 0;
  for (auto _ : state) {
    c.start(kModules);
    for (int p = 0;; p = (p + 1) % P) {
      const int k = c.next(p);
      if (k == 0) break;
      const double seconds = k * (p == 0 ? 2e-6 : 1e-6);
      c.finished(p, {k, seconds, k * 1e-12, seconds});
      ++chunks;
    }
  }
  const double per_loop = static_cast<double>(chunks) / static_cast<double>(state.iterations());
  state.counters["chunks"] = per_loop;
  state.counters["ns_per_chunk"] =
      benchmark::Counter(static_cast<double>(chunks) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

const bool registered = [] {
  for (const LoopTechniqueInfo& info : loop_technique_registry())
    benchmark::RegisterBenchmark(("BM_HandOut/" + info.name).c_str(), BM_HandOut, info)
        ->ArgName("P")
        ->RangeMultiplier(8)
        ->Range(4, 256)
        ->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
}  // namespace lbb
