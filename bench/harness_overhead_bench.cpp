// Harness overhead: the BSP executor running empty modules against a bare `omp parallel` +
// barrier loop making the same empty calls, measured side by side in one benchmark run.
#include <benchmark/benchmark.h>
#include <omp.h>

#include "harness/clock.h"
#include "harness/exec/bsp_executor.h"

namespace lbb {
namespace {

// Modules that do nothing: what remains of a step is the harness itself. (Not final, and the
// bare loop sees it only as a Workload: its calls stay virtual, as the harness's are.)
class EmptyWorkload : public Workload {
 public:
  explicit EmptyWorkload(int modules) : modules_(modules) {}
  int module_count() const override { return modules_; }
  ModuleStructure structure() const override { return ModuleStructure::kIndependent; }
  std::vector<double> predicted_weights() const override {
    return std::vector<double>(modules_, 1);
  }
  std::size_t state_bytes(int) const override { return 64; }
  void init_state(int, std::span<std::byte> s) const override {
    std::fill(s.begin(), s.end(), std::byte{0});
  }
  void run_module(int, int, int, std::span<std::byte> s) override {
    benchmark::DoNotOptimize(s.data());
  }
  void finish_step(int, ModuleStates&) override {}
  Verification verify(ModuleStates&, int) override { return {true, "empty", 0, 0, 0, 0}; }

 private:
  int modules_;
};

struct NullSink final : StepSink {
  void on_step(const StepRecord& r) override { benchmark::DoNotOptimize(&r); }
};

// Seconds per step of the bare loop: the same virtual calls on the same block partition. Out of
// line and through a Workload&, so the compiler cannot inline the module away.
[[gnu::noinline]] double bare_loop(Workload& w, std::vector<std::vector<std::byte>>& states, int P,
                                   int steps) {
  const int M = w.module_count();
  const double t0 = wall_now();
#pragma omp parallel num_threads(P)
  {
    const int p = omp_get_thread_num();
    const int first = static_cast<int>(static_cast<long long>(p) * M / P);
    const int last = static_cast<int>(static_cast<long long>(p + 1) * M / P);
    for (int s = 0; s < steps; ++s) {
      for (int m = first; m < last; ++m) w.run_module(m, s, 0, states[m]);
#pragma omp barrier
    }
  }
  return (wall_now() - t0) / steps;
}

double barrier_only(int P, int steps) {
  const double t0 = wall_now();
#pragma omp parallel num_threads(P)
  for (int s = 0; s < steps; ++s) {
#pragma omp barrier
  }
  return (wall_now() - t0) / steps;
}

double harness_loop(EmptyWorkload& w, int P, int steps) {
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan;
  plan.processors = P;
  plan.steps = steps;
  plan.topology = &topo;
  plan.speed.assign(P, 1.0);
  NullSink sink;
  BspExecutor executor;
  // Placement is not per-step work: time the step loop through the executor's own figure,
  // minus a run of zero steps' worth of set-up measured the same way.
  const double t0 = wall_now();
  executor.run(w, store, plan, sink);
  const double with_steps = wall_now() - t0;
  ModuleStore store0(w);
  plan.steps = 1;
  const double t1 = wall_now();
  executor.run(w, store0, plan, sink);
  const double one_step = wall_now() - t1;
  return (with_steps - one_step) / (steps - 1);
}

// Args: processors, modules. Each repetition times the three loops once; the counters are
// reported as medians with their spread over the repetitions. Wall clock: with P above the
// cores, the figures include the operating system's turns (the load average says how many).
void BM_HarnessOverhead(benchmark::State& state) {
  const int P = static_cast<int>(state.range(0));
  const int M = static_cast<int>(state.range(1));
  const int steps = 400;
  EmptyWorkload w(M);
  std::vector<std::vector<std::byte>> states(M, std::vector<std::byte>(64));
  double bare = 0, harness = 0, barrier = 0;
  for (auto _ : state) {
    bare = bare_loop(w, states, P, steps);
    harness = harness_loop(w, P, steps);
    barrier = barrier_only(P, steps);
    state.SetIterationTime(harness * steps);
  }
  const double per_proc = static_cast<double>(M) / P;
  state.counters["bare_us_per_step"] = bare * 1e6;
  state.counters["harness_us_per_step"] = harness * 1e6;
  state.counters["barrier_us"] = barrier * 1e6;
  state.counters["overhead_step_in_barriers"] = (harness - bare) / barrier;
  state.counters["overhead_ns_per_module"] = (harness - bare) / per_proc * 1e9;
}

BENCHMARK(BM_HarnessOverhead)
    ->ArgNames({"P", "M"})
    ->Args({2, 2})
    ->Args({2, 8192})
    ->Args({8, 8})
    ->Args({8, 8192})
    ->Args({16, 16})
    ->Args({16, 8192})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(1)
    ->Repetitions(9)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace lbb
