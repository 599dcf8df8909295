// Harness overhead: the BSP executor running empty modules against a bare `omp parallel` +
// barrier loop making the same empty calls, measured side by side in one benchmark run.
#include <benchmark/benchmark.h>
#include <omp.h>

#include "harness/clock.h"
#include "harness/exec/bsp_executor.h"
#include "harness/provenance.h"

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
  std::shared_ptr<const SerialReference> reference(int steps) const override {
    return std::make_shared<SerialReference>(steps);
  }
  Verification verify_against(ModuleStates&, int, const SerialReference&) override {
    return {true, "empty", 0, 0, 0, 0};
  }

 private:
  int modules_;
};

struct NullSink final : StepSink {
  void on_step(const StepRecord& r) override { benchmark::DoNotOptimize(&r); }
};

int available_cores() {
  static const int available = gather_provenance().available;
  return available;
}

// Seconds of a stretch on both clocks: wall, and the process's CPU time (all its threads).
struct Cost {
  double wall = 0, cpu = 0;
  Cost operator-(const Cost& o) const { return {wall - o.wall, cpu - o.cpu}; }
  Cost operator/(double n) const { return {wall / n, cpu / n}; }
};

Cost cost_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return {wall_now(), seconds_of(ts)};
}

// Per step, the bare loop: the same virtual calls on the same block partition. Out of line and
// through a Workload&, so the compiler cannot inline the module away.
[[gnu::noinline]] Cost bare_loop(Workload& w, std::vector<std::vector<std::byte>>& states, int P,
                                 int steps) {
  const int M = w.module_count();
  const Cost t0 = cost_now();
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
  return (cost_now() - t0) / steps;
}

Cost barrier_only(int P, int steps) {
  const Cost t0 = cost_now();
#pragma omp parallel num_threads(P)
  for (int s = 0; s < steps; ++s) {
#pragma omp barrier
  }
  return (cost_now() - t0) / steps;
}

Cost harness_run(EmptyWorkload& w, int P, int steps) {
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan;
  plan.processors = P;
  plan.steps = steps;
  plan.topology = &topo;
  plan.speed.assign(P, 1.0);
  NullSink sink;
  const Cost t0 = cost_now();
  BspExecutor().run(w, store, plan, sink);
  return cost_now() - t0;
}

// Per step of the harness. Placement is not per-step work: a run of one step, measured the same
// way, is taken off.
Cost harness_loop(EmptyWorkload& w, int P, int steps) {
  const Cost all = harness_run(w, P, steps);
  return (all - harness_run(w, P, 1)) / (steps - 1);
}

// Args: processors, modules. Each repetition times the three loops once, side by side; the
// counters are reported as medians with their spread over the repetitions. Where the threads
// outnumber the cores, the figures are process CPU time per step (the operating system's turns
// would fill the wall clock), else wall time: `cpu_basis` says which.
void BM_HarnessOverhead(benchmark::State& state) {
  const int P = static_cast<int>(state.range(0));
  const int M = static_cast<int>(state.range(1));
  const int steps = 400;
  const bool cpu_basis = P > available_cores();
  auto pick = [&](const Cost& c) { return cpu_basis ? c.cpu : c.wall; };
  EmptyWorkload w(M);
  std::vector<std::vector<std::byte>> states(M, std::vector<std::byte>(64));
  double bare = 0, harness = 0, barrier = 0, cpu_per_module = 0;
  for (auto _ : state) {
    const Cost b = bare_loop(w, states, P, steps), h = harness_loop(w, P, steps);
    bare = pick(b);
    harness = pick(h);
    barrier = pick(barrier_only(P, steps));
    cpu_per_module = (h.cpu - b.cpu) / M;  // every thread's CPU time over every module
    state.SetIterationTime(harness * steps);
  }
  const double per_proc = static_cast<double>(M) / P;
  state.counters["cpu_basis"] = cpu_basis;
  state.counters["bare_us_per_step"] = bare * 1e6;
  state.counters["harness_us_per_step"] = harness * 1e6;
  state.counters["barrier_us"] = barrier * 1e6;
  // The goals' ratios: the harness's time per step over the bare loop's, in bare barriers (at
  // most 2 at P = 2), and per module a processor runs (at most 100 ns on real cores).
  state.counters["overhead_step_in_barriers"] = (harness - bare) / barrier;
  state.counters["overhead_ns_per_module"] = (harness - bare) / per_proc * 1e9;
  // The same by CPU time whatever the threads: a shared host's other processes take turns on
  // the cores and fill the wall clock (waits spin or sleep as OMP_WAIT_POLICY says).
  state.counters["overhead_cpu_ns_per_module"] = cpu_per_module * 1e9;
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
