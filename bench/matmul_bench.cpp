// Matmul's kernel inside the harness against plain single-threaded dgemm, in the same run: the
// BSP executor runs the matmul workload on one processor, each step's CPU time running modules
// (StepRecord::busy) recorded; then passes of plain cblas_dgemm calls over as many blocks are
// timed by the thread's CPU clock (a wall clock would count other processes' turns on a shared
// machine), each block with its own X and Z as the modules have (ratio), and one block used
// again and again, whose X and Z stay in cache (ratio_hot_block). Ratios of median GFLOP/s per
// step or pass; *_spread = (q3 - q1) / median.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <vector>

#include "harness/base/clock.h"
#include "harness/exec/bsp_executor.h"
#include "kernels/blas_threads.h"
#include "workloads/matmul.h"

namespace lbb {
namespace {

struct StepBusy final : StepSink {
  void on_step(const StepRecord& r) override { busy.push_back(r.busy.at(0)); }
  std::vector<double> busy;  // CPU s running modules, per step
};

double quantile(std::vector<double> v, double q) {
  const auto at = v.begin() + static_cast<std::ptrdiff_t>(q * (v.size() - 1));
  std::nth_element(v.begin(), at, v.end());
  return *at;
}

double spread(const std::vector<double>& v) {
  return (quantile(v, 0.75) - quantile(v, 0.25)) / quantile(v, 0.5);
}

// CPU seconds of each of `passes` passes of `calls` dgemm calls each, cycling over `blocks`
// distinct X and Z.
std::vector<double> plain_dgemm(int rows, int r, int m, int blocks, int calls, int passes) {
  std::vector<std::vector<double>> x(blocks), z(blocks);
  for (int b = 0; b < blocks; ++b) {
    x[b].resize(static_cast<std::size_t>(rows) * r);
    for (std::size_t k = 0; k < x[b].size(); ++k) x[b][k] = 1.0 / (1 + (k + b) % 17);
    z[b].resize(static_cast<std::size_t>(rows) * m);
  }
  const std::vector<double> y(static_cast<std::size_t>(r) * m, 0.25);
  std::vector<double> seconds;
  for (int pass = 0; pass < passes + 1; ++pass) {
    const double t0 = thread_cpu_now();
    for (int k = 0; k < calls; ++k) {
      const int b = k % blocks;
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, m, r, 1.0, x[b].data(), r,
                  y.data(), m, 0.0, z[b].data(), m);
      benchmark::DoNotOptimize(z[b].data());
    }
    if (pass > 0) seconds.push_back(thread_cpu_now() - t0);  // the first pass warms up
  }
  return seconds;
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
  const int n = static_cast<int>(state.range(0));
  const int blocks = n / rows;           // n is a multiple of rows in every case below
  const double flops = 2.0 * n * r * m;  // a step
  const int steps = 10;
  kernels::use_one_blas_thread();
  std::vector<double> harness, plain, plain_hot;
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
    StepBusy sink;
    const ExecutionResult x = BspExecutor().run(w, store, plan, sink);
    if (!w.verify(store, x.steps_run).passed) state.SkipWithError("matmul did not verify");
    harness.insert(harness.end(), sink.busy.begin(), sink.busy.end());

    const auto each = plain_dgemm(rows, r, m, blocks, blocks, steps);
    const auto hot = plain_dgemm(rows, r, m, 1, blocks, steps);
    plain.insert(plain.end(), each.begin(), each.end());
    plain_hot.insert(plain_hot.end(), hot.begin(), hot.end());
  }
  const double in_harness = flops / quantile(harness, 0.5) * 1e-9;
  const double bare = flops / quantile(plain, 0.5) * 1e-9;
  const double bare_hot = flops / quantile(plain_hot, 0.5) * 1e-9;
  state.counters["harness_GFLOPs"] = in_harness;
  state.counters["dgemm_GFLOPs"] = bare;
  state.counters["dgemm_hot_block_GFLOPs"] = bare_hot;
  state.counters["ratio"] = in_harness / bare;
  state.counters["ratio_hot_block"] = in_harness / bare_hot;
  state.counters["harness_spread"] = spread(harness);
  state.counters["dgemm_spread"] = spread(plain);
}
BENCHMARK(BM_MatmulInHarnessVsPlainDgemm)
    ->Args({800, 400, 400, 25})
    ->Args({800, 800, 400, 25})
    ->Args({1600, 800, 400, 100})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace lbb
