// TRFD's two loops balanced separately (Zaki, Li & Parthasarathy 1997) against one assignment
// for both, side by side in one run: the BSP executor with optimal_chain partitions of each
// phase's predicted weights (copies between the phases included), then with one optimal_chain
// partition of their sum for both phases. Counters: modelled makespan and wall per step of both,
// their ratios, and the ratio the cost model predicts (sum over phases of the bottlenecks).
#include <benchmark/benchmark.h>

#include "balancers/partition/optimal_chain.h"
#include "core/assignment.h"
#include "harness/exec/bsp_executor.h"
#include "workloads/trfd.h"

namespace lbb {
namespace {

// The partition of the summed weights, whatever phase's weights the view holds.
class JointChain final : public Balancer {
 public:
  explicit JointChain(std::vector<double> total) : total_(std::move(total)) {}
  Decision decide(const LoadView& v) override {
    return {true, chain_owners(optimal_chain(total_, v.speed)), 0};
  }

 private:
  std::vector<double> total_;
};

struct Totals final : StepSink {
  void on_step(const StepRecord& r) override {
    makespan += r.makespan;
    wall += r.wall;
    ++steps;
  }
  double makespan = 0, wall = 0;
  int steps = 0;
};

Totals run(Trfd& w, Balancer& initial, int P, int steps) {
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan;
  plan.processors = P;
  plan.warmup = 1;
  plan.steps = steps;
  plan.topology = &topo;
  plan.speed.assign(P, 1.0);
  plan.initial = &initial;
  Totals t;
  const ExecutionResult x = BspExecutor().run(w, store, plan, t);
  if (!w.verify(store, x.steps_run).passed) throw std::runtime_error("trfd did not verify");
  return t;
}

double predicted(const Trfd& w, const std::vector<std::vector<int>>& owner,
                 const std::vector<double>& speed) {
  double sum = 0;
  for (int ph = 0; ph < w.phases(); ++ph)
    sum += bottleneck(owner[ph % owner.size()], w.predicted_phase_weights(ph), speed);
  return sum;
}

// Args: orbitals n (one per module), processors.
void BM_TrfdPerPhaseVsOneAssignment(benchmark::State& state) {
  Params given;
  given.set("n", state.range(0));
  const Params params = resolve_params(Trfd::info().params, given);
  const int P = static_cast<int>(state.range(1));
  const int steps = 5;
  const std::vector<double> speed(P, 1.0);
  Trfd probe(params);
  std::vector<std::vector<int>> per_owner,
      joint_owner{chain_owners(optimal_chain(probe.predicted_weights(), speed))};
  for (int ph = 0; ph < probe.phases(); ++ph)
    per_owner.push_back(chain_owners(optimal_chain(probe.predicted_phase_weights(ph), speed)));
  auto per_phase = make_balancer("optimal_chain", Params{});
  JointChain joint(probe.predicted_weights());
  double per_m = 0, per_w = 0, joint_m = 0, joint_w = 0;
  for (auto _ : state) {
    Trfd a(params), b(params);
    const Totals ta = run(a, *per_phase, P, steps);
    const Totals tb = run(b, joint, P, steps);
    per_m += ta.makespan / ta.steps;
    per_w += ta.wall / ta.steps;
    joint_m += tb.makespan / tb.steps;
    joint_w += tb.wall / tb.steps;
  }
  state.counters["per_phase_makespan_ms"] = 1e3 * per_m / state.iterations();
  state.counters["joint_makespan_ms"] = 1e3 * joint_m / state.iterations();
  state.counters["makespan_ratio"] = per_m / joint_m;
  state.counters["wall_ratio"] = per_w / joint_w;
  state.counters["predicted_ratio"] =
      predicted(probe, per_owner, speed) / predicted(probe, joint_owner, speed);
}

BENCHMARK(BM_TrfdPerPhaseVsOneAssignment)
    ->ArgNames({"n", "P"})
    ->Args({32, 4})
    ->Args({40, 4})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lbb
