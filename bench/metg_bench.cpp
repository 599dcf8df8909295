// METG(50 %), Task Bench's measure of a runtime's overhead (Slaughter et al., SC 2020): the
// smallest task granularity at which the runtime still reaches half of the ideal. Here a task is
// a module step of block_substitution (a real banded forward and back substitution, its cost
// linear in the block's grid lines), one module per processor a step as Task Bench's width is
// one task per core, swept from 2^11 lines down to 1. As Task Bench's scripts compute it
// (scripts/chart_metg.py, without a peak rate): the largest size is the reference, efficiency =
// its step time scaled by the size ratio over the measured step time, granularity = step wall x
// P / modules (core time per module), METG = the smallest granularity at efficiency >= 50 %,
// interpolated linearly towards the next smaller size. Counters: metg_us (that rule),
// cpu_per_module_us (process CPU per module at that point), cpu_metg_us (the same rule on the
// process CPU clock, which other processes on a shared host do not stretch), ref_module_us and
// smallest_module_us (core time per module at the largest and smallest sizes) and
// smallest_efficiency. The wait policy is the process's: run the binary once with
// OMP_WAIT_POLICY unset and once with it passive (`passive` says which).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/base/clock.h"
#include "harness/exec/async_executor.h"
#include "harness/exec/bsp_executor.h"
#include "harness/exec/self_scheduled_executor.h"
#include "harness/exec/wait_policy.h"
#include "harness/run/provenance.h"
#include "workloads/block_substitution.h"
#include "workloads/vector_module_states.h"

namespace lbb {
namespace {

enum class Kind { kBsp, kAsync, kSelfScheduled };

std::unique_ptr<Executor> make_executor(Kind kind) {
  switch (kind) {
    case Kind::kBsp:
      return std::make_unique<BspExecutor>();
    case Kind::kAsync:
      return std::make_unique<AsyncExecutor>(AsyncOrder::kArrival);
    case Kind::kSelfScheduled:
      break;
  }
  return std::make_unique<SelfScheduledExecutor>(InStepSchedule::kOmpDynamic, 1);
}

// Each step's end on the wall clock, and its record's wall time: the asynchronous executor
// hands its records on after the run, so only their own wall times tell its steps apart.
struct StepTimes final : StepSink {
  std::vector<double> stamps, walls;
  void on_step(const StepRecord& r) override {
    stamps.push_back(wall_now());
    walls.push_back(r.wall);
  }
};

struct SizePoint {
  double lines = 0;
  double step_wall = 0;       // s, mean over the recorded steps
  double cpu_per_module = 0;  // s, process CPU of the steps per module run
};

constexpr int kWidth = 16;  // grid columns: about 4 x 16^2 flops a line of substitution
// 2048 lines (a 5 MB state), about a millisecond a module: the largest size whose line costs
// what a smaller one's does. Measured alone (BM_MetgKernelAlone, 2026-12-02) the substitution
// took 0.49-0.56 us of CPU a line from 1 to 2048 lines but 0.66 at 4096 (10 MB, past this
// host's 2 MB of L2 a core by more): a reference there would make every smaller size look more
// efficient than it is.
constexpr int kMaxLog = 11;

Params sized(int modules, int lines) {
  Params given;
  given.set("blocks", static_cast<std::int64_t>(modules));
  given.set("width", static_cast<std::int64_t>(kWidth));
  given.set("mean_lines", static_cast<double>(lines));
  given.set("sd", 0.0);  // every block the same height: every module the same work
  return resolve_params(BlockSubstitution::info().params, given);
}

// Steps at `lines`: about 2^16 lines of work a module over the run, a tenth of a second at
// every size, at least 30 steps, at most 3000.
int steps_at(int lines) {
  return std::clamp((1 << 16) / lines, 30, 3000);
}

// One size: `steps` recorded steps after two warm-up steps. Mean step time as Task Bench's
// elapsed over its tasks (a disturbed step counts, on both sides of the comparison).
SizePoint measure(Kind kind, int P, int modules, int lines, int steps) {
  BlockSubstitution w(sized(modules, lines));
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan;
  plan.processors = P;
  plan.warmup = 2;
  plan.steps = steps;
  plan.topology = &topo;
  plan.speed.assign(P, 1.0);
  StepTimes sink;
  sink.stamps.reserve(steps);
  sink.walls.reserve(steps);
  const auto executor = make_executor(kind);
  const double c0 = process_cpu_now();
  const ExecutionResult x = executor->run(w, store, plan, sink);
  const double cpu = process_cpu_now() - c0 - x.placement - x.initial_partition_seconds;
  SizePoint point;
  point.lines = lines;
  if (kind == Kind::kAsync) {
    double sum = 0;
    for (double v : sink.walls) sum += v;
    point.step_wall = sum / steps;
  } else {  // from the first recorded step's end to the last's
    point.step_wall = (sink.stamps.back() - sink.stamps.front()) / (steps - 1);
  }
  point.cpu_per_module = cpu / (static_cast<double>(x.steps_run) * modules);
  return point;
}

struct Metg {
  double granularity = 0;  // s per module at 50 % efficiency, on the clock the rule ran on
  double other = 0;        // s per module there, on the other clock
  double smallest_efficiency = 0;
  bool found = false;
};

// chart_metg.py's rule on points sorted from the largest size down, over `g`, the time per
// module of each point (the wall clock's core time, or the process CPU); `other` is
// interpolated at the same point.
template <class G, class Other>
Metg metg_of(const std::vector<SizePoint>& points, G g, Other other) {
  auto efficiency = [&](const SizePoint& q) {
    return g(points[0]) * (q.lines / points[0].lines) / g(q);
  };
  Metg out;
  out.smallest_efficiency = efficiency(points.back());
  int best = -1;
  for (int i = 0; i < static_cast<int>(points.size()); ++i)
    if (efficiency(points[i]) >= 0.5 && (best < 0 || g(points[i]) < g(points[best]))) best = i;
  if (best < 0) return out;
  out.found = true;
  out.granularity = g(points[best]);
  out.other = other(points[best]);
  if (best + 1 < static_cast<int>(points.size()) && g(points[best + 1]) < g(points[best])) {
    const SizePoint &a = points[best], &b = points[best + 1];
    const double ea = efficiency(a), eb = efficiency(b);
    const double t = ea == eb ? 0 : (ea - 0.5) / (ea - eb);  // 0 at a, 1 at b
    out.granularity = g(a) + t * (g(b) - g(a));
    out.other = other(a) + t * (other(b) - other(a));
  }
  return out;
}

// Task Bench's: on the wall clock, core time per module (step wall x P / modules), with the
// process CPU per module at that point.
Metg wall_metg(const std::vector<SizePoint>& points, int P, int modules) {
  const double per = static_cast<double>(P) / modules;
  return metg_of(
      points, [&](const SizePoint& q) { return q.step_wall * per; },
      [](const SizePoint& q) { return q.cpu_per_module; });
}

// The same rule on the process CPU clock: where other processes share the cores, their turns
// stretch every wall figure, the reference's too, and leave the CPU ones alone; waits that
// spin still count.
Metg cpu_metg(const std::vector<SizePoint>& points, int P, int modules) {
  const double per = static_cast<double>(P) / modules;
  return metg_of(
      points, [](const SizePoint& q) { return q.cpu_per_module; },
      [&](const SizePoint& q) { return q.step_wall * per; });
}

// Args: executor (0 bsp, 1 async, 2 self-scheduled omp_dynamic,1), processors. Each repetition
// sweeps the sizes once; the aggregates give the median over repetitions.
void BM_Metg(benchmark::State& state) {
  const auto kind = static_cast<Kind>(state.range(0));
  const int P = static_cast<int>(state.range(1));
  const int modules = P;
  Metg m, c;
  std::vector<SizePoint> points;
  for (auto _ : state) {
    const double w0 = wall_now();
    points.clear();
    for (int k = kMaxLog; k >= 0; --k) {
      points.push_back(measure(kind, P, modules, 1 << k, steps_at(1 << k)));
    }
    m = wall_metg(points, P, modules);
    c = cpu_metg(points, P, modules);
    state.SetIterationTime(wall_now() - w0);
  }
  if (!m.found) state.SkipWithError("no size reached 50 % efficiency");
  state.counters["passive"] = wait_policy() == WaitPolicy::kPassive;
  state.counters["metg_us"] = m.granularity * 1e6;
  state.counters["cpu_per_module_us"] = m.other * 1e6;
  state.counters["cpu_metg_us"] = c.granularity * 1e6;
  state.counters["ref_module_us"] = points.front().step_wall * P / modules * 1e6;
  state.counters["smallest_efficiency"] = m.smallest_efficiency;
  state.counters["smallest_module_us"] = points.back().step_wall * P / modules * 1e6;
}

// The kernel's own floor: the same sweep of two modules run one after the other on one
// thread, no executor, no clock read between them. Its METG by the same rule is the
// granularity where the substitution alone (its LAPACK call, the block's right-hand side)
// loses half its rate; an executor's METG cannot fall below it.
void BM_MetgKernelAlone(benchmark::State& state) {
  const int modules = 2;
  Metg m, c;
  std::vector<SizePoint> points;
  for (auto _ : state) {
    const double w0 = wall_now();
    points.clear();
    for (int k = kMaxLog; k >= 0; --k) {
      BlockSubstitution w(sized(modules, 1 << k));
      VectorModuleStates states(w);
      const int steps = steps_at(1 << k);
      for (int s = 0; s < 2; ++s)  // the executors' two warm-up steps
        for (int i = 0; i < modules; ++i) w.run_module(i, s, 0, states.state(i));
      const double t0 = wall_now(), c0 = thread_cpu_now();
      for (int s = 2; s < steps + 2; ++s)
        for (int i = 0; i < modules; ++i) w.run_module(i, s, 0, states.state(i));
      const double wall = wall_now() - t0, cpu = thread_cpu_now() - c0;
      points.push_back({static_cast<double>(1 << k), wall / steps, cpu / (steps * modules)});
    }
    m = wall_metg(points, 1, modules);
    c = cpu_metg(points, 1, modules);
    state.SetIterationTime(wall_now() - w0);
  }
  if (!m.found) state.SkipWithError("no size reached 50 % efficiency");
  state.counters["metg_us"] = m.granularity * 1e6;
  state.counters["cpu_metg_us"] = c.granularity * 1e6;
  state.counters["smallest_cpu_efficiency"] = c.smallest_efficiency;
  state.counters["smallest_module_cpu_us"] = points.back().cpu_per_module * 1e6;
  state.counters["ref_module_us"] = points.front().step_wall / modules * 1e6;
  state.counters["smallest_efficiency"] = m.smallest_efficiency;
  state.counters["smallest_module_us"] = points.back().step_wall / modules * 1e6;
}
BENCHMARK(BM_MetgKernelAlone)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(1)
    ->ReportAggregatesOnly(true);

// P = 2 and every P up to the host's cores.
void processor_counts(benchmark::internal::Benchmark* b) {
  const int cores = std::max(2, gather_provenance().available);
  for (int kind = 0; kind < 3; ++kind)
    for (int P = 2; P <= cores; ++P) b->Args({kind, P});
}

BENCHMARK(BM_Metg)
    ->ArgNames({"executor", "P"})
    ->Apply(processor_counts)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace lbb
