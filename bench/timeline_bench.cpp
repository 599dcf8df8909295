// The measured timeline's cost (execution.timeline) at its worst: the BSP executor on modules
// that do nothing, so that a step is the harness alone and every span recorded shows. Arg 0:
// timeline off, 1: on; per step wall time (items: steps). The cost at real module sizes:
// scripts/timeline_cost.sh, docs/evidence/timeline-2026-12-02.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "harness/exec/bsp_executor.h"
#include "harness/exec/timeline_recorder.h"

namespace lbb {
namespace {

class IdleModules final : public Workload {
 public:
  explicit IdleModules(int modules) : modules_(modules) {}
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
    return {true, "idle", 0, 0, 0, 0};
  }

 private:
  int modules_;
};

struct DropSteps final : StepSink {
  void on_step(const StepRecord& r) override { benchmark::DoNotOptimize(&r); }
};

// 2 processors, 64 modules (configs/default.yaml's block substitution count), range(1) steps a
// run: the run's own costs (reserving the buffers, gathering the spans) spread over its steps.
void BM_TimelineIdleStep(benchmark::State& state) {
  const int kSteps = static_cast<int>(state.range(1));
  IdleModules w(64);
  const Topology topo(TopologyKind::kChain, 2);
  ExecutionPlan plan;
  plan.processors = 2;
  plan.steps = kSteps;
  plan.topology = &topo;
  plan.speed.assign(2, 1.0);
  plan.timeline = state.range(0) != 0;
  DropSteps sink;
  std::size_t spans = 0;
  for (auto _ : state) {
    ModuleStore store(w);
    spans = BspExecutor().run(w, store, plan, sink).spans.size();
  }
  state.SetItemsProcessed(state.iterations() * kSteps);
  state.counters["spans_per_step"] = static_cast<double>(spans) / kSteps;
}
BENCHMARK(BM_TimelineIdleStep)
    ->ArgsProduct({{0, 1}, {200, 2000}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
}  // namespace lbb

namespace lbb {
namespace {

// One processor's spans alone, no threads: ns a module span costs (add, with its two clock
// values converted to integer ns), and a phase's wait (idle_from, then resume).
void BM_TimelineSpan(benchmark::State& state) {
  TimelineRecorder t;
  t.enable(1, 1 << 16);
  t.set_base(1000.0);
  double now = 1000.0;
  std::size_t n = 0;
  for (auto _ : state) {
    if (n++ == (1 << 16) - 4) {  // keep within the reservation, as a run's buffers are
      state.PauseTiming();
      t.enable(1, 1 << 16);
      n = 0;
      state.ResumeTiming();
    }
    t.add(0, SpanKind::kModule, 0, 0, 7, now, now + 1e-6);
    now += 1e-6;
    benchmark::DoNotOptimize(now);
  }
}
BENCHMARK(BM_TimelineSpan);

}  // namespace
}  // namespace lbb
