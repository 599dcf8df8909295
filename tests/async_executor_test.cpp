// The asynchronous executor (Iqbal, Saltz & Bokhari 1986): the block Jacobi result equals the
// bulk-synchronous one bit for bit, no module runs a step before its dependencies, and ownership
// moves under the predictive balancer conserve modules under stress.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <numeric>

#include "balancers/async/predictive.h"
#include "balancers/partition/optimal_chain.h"
#include "executor_test_support.h"
#include "harness/exec/async_executor.h"
#include "harness/exec/bsp_executor.h"
#include "workloads/block_substitution.h"

namespace lbb {
namespace {

Params block_problem() {
  Params p;
  p.set("blocks", std::int64_t{24});
  p.set("width", std::int64_t{8});
  p.set("mean_lines", 3.0);
  p.set("sd", 1.0);
  p.set("seed", std::int64_t{5});
  return resolve_params(BlockSubstitution::info().params, p);
}

// Both orders: as the host runs the threads, and in the modelled clocks' order.
class AsyncOrders : public ::testing::TestWithParam<AsyncOrder> {};
INSTANTIATE_TEST_SUITE_P(Orders, AsyncOrders,
                         ::testing::Values(AsyncOrder::kArrival, AsyncOrder::kModelled),
                         [](const auto& info) {
                           return info.param == AsyncOrder::kArrival ? "arrival" : "modelled";
                         });

TEST_P(AsyncOrders, BlockSubstitutionEqualsBulkSynchronousBitForBit) {
  const int P = 4, steps = 30;
  const Topology chain(TopologyKind::kChain, P);
  BlockSubstitution bsp_work(block_problem()), async_work(block_problem());
  ModuleStore bsp_store(bsp_work), async_store(async_work);
  testing::CollectSteps bsp_sink, async_sink;
  ExecutionPlan plan = testing::plan_for(P, steps, chain);
  BspExecutor().run(bsp_work, bsp_store, plan, bsp_sink);
  Predictive predictive(3.0, 0.0);  // a low bar: modules move often
  plan.dynamic = &predictive;
  AsyncExecutor async(GetParam());
  const ExecutionResult x = async.run(async_work, async_store, plan, async_sink);
  EXPECT_GT(x.migrations, 0);
  EXPECT_EQ(async_work.gather_solution(async_store), bsp_work.gather_solution(bsp_store));
  ASSERT_EQ(async_sink.records.size(), static_cast<std::size_t>(steps));
  for (int s = 0; s < steps; ++s)  // the residual of every step, the first metric
    EXPECT_EQ(async_sink.records[s].metrics[0], bsp_sink.records[s].metrics[0]) << "step " << s;
  EXPECT_TRUE(async_work.verify(async_store, steps).passed);
  EXPECT_GT(async.utilization(), 0);
  EXPECT_LE(async.utilization(), 1 + 1e-12);
}

// A workload whose modules check, when they run step s, that every linked module has finished
// step s-1 and not yet step s+1 (whose value would have replaced the one of s-1), and compute a
// value from their neighbours' values of step s-1 that a serial run reproduces exactly. Each
// module's own value and step count live in its state, so a migration that lost a state shows.
class DependencyProbe : public Workload {
 public:
  DependencyProbe(ModuleGraph graph, int steps)
      : graph_(std::move(graph)),
        steps_(steps),
        value_(2 * static_cast<std::size_t>(graph_.modules()), 0.0),
        done_(static_cast<std::size_t>(graph_.modules()) * steps) {}

  int module_count() const override { return graph_.modules(); }
  ModuleStructure structure() const override { return ModuleStructure::kChain; }
  std::vector<double> predicted_weights() const override {
    std::vector<double> w(module_count());
    for (int m = 0; m < module_count(); ++m) w[m] = 1 + (m * 7919 % 5);
    return w;
  }
  std::optional<ModuleGraph> dependencies() const override { return graph_; }
  std::size_t state_bytes(int) const override { return 2 * sizeof(double); }
  void init_state(int m, std::span<std::byte> state) const override {
    const double init[2] = {static_cast<double>(m), 0.0};
    std::memcpy(state.data(), init, sizeof init);
  }
  void run_module(int m, int s, int, std::span<std::byte> state) override {
    for (int j : graph_.neighbours(m)) {
      const bool before = s == 0 || done(j, s - 1);
      const bool not_ahead = s + 1 >= steps_ || !done(j, s + 1);
      if (!before || !not_ahead) violations_.fetch_add(1);
    }
    double own[2];
    std::memcpy(own, state.data(), sizeof own);
    const double previous = s == 0 ? own[0] : value_[2 * m + ((s - 1) & 1)];
    own[0] = next_value(m, s, previous, [&](int j) {
      return s == 0 ? static_cast<double>(j) : value_[2 * j + ((s - 1) & 1)];
    });
    own[1] += 1;
    volatile double work = 0;  // a few microseconds, more for heavier modules
    for (int k = 0; k < 200 * (1 + m % 5); ++k) work = work + k * 1e-9;
    std::memcpy(state.data(), own, sizeof own);
    value_[2 * m + (s & 1)] = own[0];
    done_[static_cast<std::size_t>(m) * steps_ + s].store(1, std::memory_order_release);
  }
  void finish_step(int s, ModuleStates&) override {
    for (int m = 0; m < module_count(); ++m)
      if (!done(m, s)) violations_.fetch_add(1);
  }
  std::shared_ptr<const SerialReference> reference(int steps_run) const override {
    return std::make_shared<SerialReference>(steps_run);  // verify_against computes its own
  }
  Verification verify_against(ModuleStates& states, int steps_run,
                              const SerialReference&) override {
    std::vector<double> ref(module_count()), next(module_count());
    std::iota(ref.begin(), ref.end(), 0.0);
    for (int s = 0; s < steps_run; ++s) {
      for (int m = 0; m < module_count(); ++m)
        next[m] = next_value(m, s, ref[m], [&](int j) { return ref[j]; });
      ref.swap(next);
    }
    Verification v;
    v.passed = violations_.load() == 0;
    for (int m = 0; m < module_count(); ++m) {
      double own[2];
      std::memcpy(own, states.state(m).data(), sizeof own);
      v.passed &= own[0] == ref[m] && own[1] == steps_run;
    }
    return v;
  }
  int violations() const { return violations_.load(); }

 private:
  bool done(int m, int s) const {
    return done_[static_cast<std::size_t>(m) * steps_ + s].load(std::memory_order_acquire) != 0;
  }
  template <class Neighbour>
  double next_value(int m, int s, double previous, Neighbour&& neighbour) const {
    double sum = 0;
    for (int j : graph_.neighbours(m)) sum += neighbour(j);
    const double degree = static_cast<double>(graph_.neighbours(m).size());
    return 0.5 * previous + 0.25 * (degree > 0 ? sum / degree : 0) + 1e-3 * (m + 1) + 1e-6 * s;
  }
  ModuleGraph graph_;
  int steps_;
  std::vector<double> value_;  // [module][parity of the step]
  std::vector<std::atomic<char>> done_;
  std::atomic<int> violations_{0};
};

TEST_P(AsyncOrders, NoModuleRunsAStepBeforeItsDependenciesOnAGrid) {
  const int extents[] = {6, 6};
  const int P = 6, steps = 60;
  DependencyProbe probe(ModuleGraph::grid(extents), steps);
  ModuleStore store(probe);
  const Topology topology(TopologyKind::kChain, P);
  ExecutionPlan plan = testing::plan_for(P, steps, topology);
  Predictive predictive(4.0, 0.0);
  plan.dynamic = &predictive;
  testing::CollectSteps sink;
  AsyncExecutor(GetParam()).run(probe, store, plan, sink);
  EXPECT_EQ(probe.violations(), 0);
  EXPECT_TRUE(probe.verify(store, steps).passed);
}

// 16 threads, tiny modules, hundreds of steps, a balancer that moves modules all the time: every
// module runs every step once (the executor checks each step), none is lost or duplicated.
TEST_P(AsyncOrders, OwnershipTransfersConserveModulesUnderStress) {
  const int P = 16, steps = 300;
  const Topology topology(TopologyKind::kChain, P);
  ExecutionPlan plan = testing::plan_for(P, steps, topology);
  plan.warmup = 20;
  DependencyProbe warm(ModuleGraph::chain(64), steps + plan.warmup);
  ModuleStore warm_store(warm);
  Predictive predictive(6.0, 0.0);
  plan.dynamic = &predictive;
  OptimalChain start;
  plan.initial = &start;
  testing::CollectSteps sink;
  const ExecutionResult x = AsyncExecutor(GetParam()).run(warm, warm_store, plan, sink);
  EXPECT_EQ(warm.violations(), 0);
  EXPECT_TRUE(warm.verify(warm_store, x.steps_run).passed);
  EXPECT_TRUE(warm_store.complete());
  EXPECT_GT(x.migrations, 0);
  ASSERT_EQ(sink.records.size(), static_cast<std::size_t>(steps));
  std::int64_t moved = 0;
  for (const auto& r : sink.records) {
    moved += r.migrations;
    std::vector<int> held(P, 0);
    for (int o : r.module_owner) ++held[o];  // every module on one processor
    EXPECT_EQ(std::accumulate(held.begin(), held.end(), 0), 64);
  }
  EXPECT_LE(moved, x.migrations);
  const auto& final_owner = x.final_owner;
  EXPECT_EQ(final_owner, predictive.owner());
}

struct NeedsBarriers final : DependencyProbe {
  using DependencyProbe::DependencyProbe;
  std::optional<ModuleGraph> dependencies() const override { return std::nullopt; }
};

TEST(AsyncExecutor, RefusesWorkloadsWithoutDependenciesAndOtherBalancers) {
  const Topology topology(TopologyKind::kChain, 2);
  ExecutionPlan plan = testing::plan_for(2, 3, topology);
  NeedsBarriers barriers(ModuleGraph::chain(4), 3);
  ModuleStore barrier_store(barriers);
  testing::CollectSteps sink;
  EXPECT_THROW(AsyncExecutor().run(barriers, barrier_store, plan, sink), std::invalid_argument);
  BlockSubstitution work(block_problem());
  ModuleStore store(work);
  OptimalChain not_dynamic;
  plan.dynamic = &not_dynamic;
  EXPECT_THROW(AsyncExecutor().run(work, store, plan, sink), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
