// Matmul's kernel inside the harness against a plain single-threaded dgemm of the same block,
// in the same run: the BSP executor runs the matmul workload on one processor and records every
// module's cost; then plain cblas_dgemm calls on freshly allocated matrices of one block's size
// are timed as many times. Counters: GFLOP/s of both and their ratio (target >= 0.9).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <vector>

#include "harness/clock.h"
#include "harness/exec/bsp_executor.h"
#include "kernels/blas_threads.h"
#include "workloads/matmul.h"

namespace lbb {
namespace {

struct ModuleCosts final : StepSink {
  void on_step(const StepRecord& r) override {
    for (std::size_t m = 0; m + 1 < r.module_cost.size(); ++m) costs.push_back(r.module_cost[m]);
  }
  std::vector<double> costs;  // every full-size module of every step (the last may be shorter)
};

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Args: n, r, m, block rows.
void BM_MatmulInHarnessVsPlainDgemm(benchmark::State& state) {
  Params given;
  given.set("n", state.range(0));
  given.set("r", state.range(1));
  given.set("m", state.range(2));
  given.set("block_rows", state.range(3));
  const int r = static_cast<int>(state.range(1)), m = static_cast<int>(state.range(2));
  const int rows = static_cast<int>(state.range(3));
  const double flops = 2.0 * rows * r * m;
  const int steps = 10;
  kernels::use_one_blas_thread();
  std::vector<double> harness, plain;
  for (auto _ : state) {
    Matmul w(resolve_params(Matmul::info().params, given));
    ModuleStore store(w);
    const Topology topo(TopologyKind::kChain, 1);
    ExecutionPlan plan;
    plan.processors = 1;
    plan.warmup = 1;
    plan.steps = steps;
    plan.topology = &topo;
    plan.speed = {1.0};
    plan.record_modules = true;
    ModuleCosts sink;
    const ExecutionResult x = BspExecutor().run(w, store, plan, sink);
    if (!w.verify(store, x.steps_run).passed) state.SkipWithError("matmul did not verify");
    harness.insert(harness.end(), sink.costs.begin(), sink.costs.end());

    std::vector<double> xb(static_cast<std::size_t>(rows) * r, 0.5),
        y(static_cast<std::size_t>(r) * m, 0.25), z(static_cast<std::size_t>(rows) * m);
    for (std::size_t k = 0; k < xb.size(); ++k) xb[k] = 1.0 / (1 + k % 17);
    for (std::size_t k = 0; k < sink.costs.size() + 1; ++k) {
      const double t0 = wall_now();
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, m, r, 1.0, xb.data(), r,
                  y.data(), m, 0.0, z.data(), m);
      if (k > 0) plain.push_back(wall_now() - t0);  // the first call warms up
    }
    benchmark::DoNotOptimize(z.data());
  }
  const double in_harness = flops / median(harness) * 1e-9;
  const double bare = flops / median(plain) * 1e-9;
  state.counters["harness_GFLOPs"] = in_harness;
  state.counters["dgemm_GFLOPs"] = bare;
  state.counters["ratio"] = in_harness / bare;
}
BENCHMARK(BM_MatmulInHarnessVsPlainDgemm)
    ->Args({800, 400, 400, 25})
    ->Args({800, 800, 400, 25})
    ->Args({1600, 800, 400, 100})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace lbb
