// Harness overhead: the BSP executor running empty modules against a bare `omp parallel` +
// barrier loop making the same virtual calls, measured side by side in one benchmark run.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <vector>

#include "harness/base/clock.h"
#include "harness/exec/bsp_executor.h"
#include "harness/run/provenance.h"
#include "harness/stats/sample_summary.h"

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

// Hands each step's record on and stamps the wall clock: one stamp a step, as the bare loops
// take one (the same cost on both sides of the ratio).
struct StampingSink final : StepSink {
  std::vector<double> stamps;
  void on_step(const StepRecord& r) override {
    benchmark::DoNotOptimize(&r);
    stamps.push_back(wall_now());
  }
};

int available_cores() {
  static const int available = gather_provenance().available;
  return available;
}

// One loop's cost per step on both clocks. Wall: the median over its steps of the time between
// successive step ends (a step another process preempted is an outlier the median leaves out,
// where a mean over the loop would carry it). CPU: the process's CPU time (all its threads) over
// the loop, per step.
struct StepCost {
  double wall = 0, cpu = 0;
};

double median_interval(const std::vector<double>& stamps) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < stamps.size(); ++i) gaps.push_back(stamps[i] - stamps[i - 1]);
  return stats::median(gaps);
}

// The bare loop: the same virtual calls on the same block partition, one barrier a step. Out of
// line and through a Workload&, so the compiler cannot inline the module away. Thread 0 stamps
// each step's end.
[[gnu::noinline]] StepCost bare_loop(Workload& w, std::vector<std::vector<std::byte>>& states,
                                     int P, int steps) {
  const int M = w.module_count();
  std::vector<double> stamps(steps);
  const double c0 = process_cpu_now();
#pragma omp parallel num_threads(P)
  {
    const int p = omp_get_thread_num();
    const int first = static_cast<int>(static_cast<long long>(p) * M / P);
    const int last = static_cast<int>(static_cast<long long>(p + 1) * M / P);
    for (int s = 0; s < steps; ++s) {
      for (int m = first; m < last; ++m) w.run_module(m, s, 0, states[m]);
#pragma omp barrier
      if (p == 0) stamps[s] = wall_now();
    }
  }
  return {median_interval(stamps), (process_cpu_now() - c0) / steps};
}

// One bare barrier, stamped the same way: the unit of the goal.
StepCost barrier_only(int P, int steps) {
  std::vector<double> stamps(steps);
  const double c0 = process_cpu_now();
#pragma omp parallel num_threads(P)
  for (int s = 0; s < steps; ++s) {
#pragma omp barrier
    if (omp_get_thread_num() == 0) stamps[s] = wall_now();
  }
  return {median_interval(stamps), (process_cpu_now() - c0) / steps};
}

// The harness's run of `steps` steps: per step wall times from the sink's stamps, and the
// process CPU time of the whole run.
StepCost harness_run(EmptyWorkload& w, int P, int steps) {
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan;
  plan.processors = P;
  plan.steps = steps;
  plan.topology = &topo;
  plan.speed.assign(P, 1.0);
  StampingSink sink;
  sink.stamps.reserve(steps);
  const double c0 = process_cpu_now();
  BspExecutor().run(w, store, plan, sink);
  return {median_interval(sink.stamps), process_cpu_now() - c0};
}

// Per step of the harness. Placement is not per-step work: on the CPU clock a run of one step,
// measured the same way, is taken off.
StepCost harness_loop(EmptyWorkload& w, int P, int steps) {
  const StepCost all = harness_run(w, P, steps);
  return {all.wall, (all.cpu - harness_run(w, P, 1).cpu) / (steps - 1)};
}

// Args: processors, modules. Each repetition times the three loops once, side by side, and
// reports its ratios; the aggregates give their median and quartiles over the repetitions. Where
// the threads outnumber the cores the figures are process CPU time per step (the operating
// system's turns would fill the wall clock; waits spin or sleep as each barrier's policy says),
// else the wall clock's median step: `cpu_basis` says which.
void BM_HarnessOverhead(benchmark::State& state) {
  const int P = static_cast<int>(state.range(0));
  const int M = static_cast<int>(state.range(1));
  const int steps = 400;
  const bool cpu_basis = P > available_cores();
  auto pick = [&](const StepCost& c) { return cpu_basis ? c.cpu : c.wall; };
  EmptyWorkload w(M);
  std::vector<std::vector<std::byte>> states(M, std::vector<std::byte>(64));
  double bare = 0, harness = 0, barrier = 0, cpu_per_module = 0, bare_cpu = 0, harness_cpu = 0;
  for (auto _ : state) {
    const StepCost b = bare_loop(w, states, P, steps), h = harness_loop(w, P, steps);
    bare = pick(b);
    harness = pick(h);
    barrier = pick(barrier_only(P, steps));
    cpu_per_module = (h.cpu - b.cpu) / M;  // every thread's CPU time over every module
    bare_cpu = b.cpu;
    harness_cpu = h.cpu;
    state.SetIterationTime(harness * steps);
  }
  const double per_proc = static_cast<double>(M) / P;
  state.counters["cpu_basis"] = cpu_basis;
  state.counters["bare_us_per_step"] = bare * 1e6;
  state.counters["harness_us_per_step"] = harness * 1e6;
  state.counters["barrier_us"] = barrier * 1e6;
  // The whole step on the process CPU clock, every thread's waits included: what a step costs
  // the host, beside Task Bench's CPU per task (docs/evidence/metg-2026-12-02.md).
  state.counters["bare_cpu_us_per_step"] = bare_cpu * 1e6;
  state.counters["harness_cpu_us_per_step"] = harness_cpu * 1e6;
  // The goals' ratios: the harness's time per step over the bare loop's, in bare barriers (at
  // most 2 at P = 2), and per module a processor runs (at most 100 ns on real cores).
  state.counters["overhead_step_in_barriers"] = (harness - bare) / barrier;
  state.counters["overhead_ns_per_module"] = (harness - bare) / per_proc * 1e9;
  // The same by CPU time whatever the threads: a shared host's other processes take turns on
  // the cores and fill the wall clock.
  state.counters["overhead_cpu_ns_per_module"] = cpu_per_module * 1e9;
}

// The lower and upper quartiles over the repetitions (nearest rank): the spread one disturbed
// repetition cannot stretch, as it stretches the extremes.
double quartile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}
double lower_quartile(const std::vector<double>& v) {
  return quartile(v, 0.25);
}
double upper_quartile(const std::vector<double>& v) {
  return quartile(v, 0.75);
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
    ->ComputeStatistics("q1", lower_quartile)
    ->ComputeStatistics("q3", upper_quartile)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace lbb
