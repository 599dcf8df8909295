#include <gtest/gtest.h>
#include <omp.h>

#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "executor_test_support.h"
#include "harness/exec/bsp_executor.h"
#include "harness/exec/self_scheduled_executor.h"
#include "workloads/block_substitution.h"

namespace lbb {
namespace {

Params small_problem(int blocks = 12) {
  Params p;
  p.set("blocks", std::int64_t{blocks});
  p.set("width", std::int64_t{8});
  p.set("mean_lines", 3.0);
  p.set("sd", 1.0);
  return resolve_params(BlockSubstitution::info().params, p);
}

// Moves a random subset of modules to random processors every step, remembering what it moved.
class RandomReassigner final : public Balancer {
 public:
  explicit RandomReassigner(std::uint64_t seed) : rng_(seed) {}
  Decision decide(const LoadView& v) override {
    Decision d{true, {v.owner.begin(), v.owner.end()}, 1};
    std::uniform_int_distribution<int> proc(0, v.processors() - 1);
    std::int64_t moved = 0, bytes = 0;
    for (int m = 0; m < v.modules(); ++m)
      if (rng_() % 3 == 0) {
        d.owner[m] = proc(rng_);
        if (d.owner[m] != v.owner[m]) {
          ++moved;
          bytes += static_cast<std::int64_t>(v.bytes[m]);
        }
      }
    moved_.push_back(moved);
    bytes_.push_back(bytes);
    return d;
  }
  std::vector<std::int64_t> moved_, bytes_;

 private:
  std::mt19937_64 rng_;
};

class BrokenBalancer final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    Decision d{true, std::vector<int>(v.modules(), 0), 1};
    d.owner.back() = v.processors();  // a processor that does not exist
    return d;
  }
};

TEST(BspExecutor, ModulesAreConservedAndBytesCountedUnderRandomReassignment) {
  BlockSubstitution w(small_problem());
  ModuleStore store(w);
  const Topology topo(TopologyKind::kComplete, 4);
  ExecutionPlan plan = testing::plan_for(4, 40, topo);
  RandomReassigner random(7);
  plan.dynamic = &random;
  testing::CollectSteps sink;
  ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  ASSERT_EQ(sink.records.size(), 40u);
  std::int64_t total = 0;
  for (std::size_t s = 0; s < sink.records.size(); ++s) {
    EXPECT_EQ(sink.records[s].migrations, random.moved_[s]) << "step " << s;
    EXPECT_EQ(sink.records[s].bytes_moved, random.bytes_[s]) << "step " << s;
    total += random.moved_[s];
    // Every module ran on exactly one processor: the recorded owners partition the modules.
    ASSERT_EQ(sink.records[s].module_owner.size(), 12u);
    if (s > 0) {
      // The owners in force during step s are the decision taken after step s-1.
      std::vector<int> before = sink.records[s - 1].module_owner;
      int changed = 0;
      for (int m = 0; m < 12; ++m) changed += before[m] != sink.records[s].module_owner[m];
      EXPECT_EQ(changed, random.moved_[s - 1]);
    }
  }
  EXPECT_GT(total, 100);  // the test really moved modules around
  EXPECT_EQ(x.migrations, total);
  EXPECT_TRUE(store.complete());
  Verification v = w.verify(store, x.steps_run);
  EXPECT_TRUE(v.passed) << v.detail;
}

// A run long enough to converge to rounding still verifies: the A-norm check stops at the
// rounding floor (800-step iqbal1986 runs failed it with an exact result).
TEST(BspExecutor, ConvergedRunStillVerifies) {
  BlockSubstitution w(small_problem());
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 2);
  ExecutionPlan plan = testing::plan_for(2, 1500, topo);
  plan.record_modules = false;
  testing::CollectSteps sink;
  ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  Verification v = w.verify(store, x.steps_run);
  EXPECT_TRUE(v.passed) << v.detail;
  EXPECT_LT(v.error, 1e-12);
}

TEST(BspExecutor, MigrationCopiesStateIntoANewBlock) {
  BlockSubstitution w(small_problem());
  ModuleStore store(w);
  for (int m = 0; m < store.size(); ++m) store.place(m);
  std::vector<std::byte> before(store.state(5).begin(), store.state(5).end());
  const std::byte* old_address = store.state(5).data();
  EXPECT_EQ(store.migrate(5), w.state_bytes(5));
  EXPECT_NE(store.state(5).data(), old_address);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), store.state(5).begin()));
}

TEST(BspExecutor, InvalidDecisionIsRefused) {
  BlockSubstitution w(small_problem());
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 3);
  ExecutionPlan plan = testing::plan_for(3, 5, topo);
  BrokenBalancer broken;
  plan.dynamic = &broken;
  testing::CollectSteps sink;
  EXPECT_THROW(BspExecutor().run(w, store, plan, sink), std::logic_error);
}

TEST(BspExecutor, RecordsAreConsistent) {
  BlockSubstitution w(small_problem(16));
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 4);
  ExecutionPlan plan = testing::plan_for(4, 10, topo);
  plan.warmup = 3;
  testing::CollectSteps sink;
  ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  EXPECT_EQ(x.steps_run, 13);
  ASSERT_EQ(sink.records.size(), 10u);
  for (const auto& r : sink.records) {
    double max_load = 0, sum = 0;
    for (int p = 0; p < 4; ++p) {
      max_load = std::max(max_load, r.busy[p] + r.proc_balance[p] + r.proc_migration[p]);
      sum += r.busy[p];
      EXPECT_GE(r.idle[p], -1e-12);
    }
    EXPECT_DOUBLE_EQ(r.makespan, max_load + r.serial);
    EXPECT_DOUBLE_EQ(r.ideal, sum / 4);
    EXPECT_LE(r.ideal, r.makespan);
    EXPECT_EQ(r.migrations, 0);
    ASSERT_EQ(r.metrics.size(), 1u);  // the residual
  }
  EXPECT_EQ(sink.records.front().step, 0);
  EXPECT_TRUE(w.verify(store, x.steps_run).passed);
}

// Two modules per processor: an even module is off the CPU for `off` (as a thread preempted by
// another is), an odd one computes for about a millisecond. With `odd_steps_only`, even steps run
// nothing (a stretch too short to read the CPU clock around). State: the computed value.
class OffCpuWorkload final : public Workload {
 public:
  OffCpuWorkload(int modules, std::chrono::milliseconds off, bool odd_steps_only = false,
                 int iterations = 200000)
      : modules_(modules), off_(off), odd_steps_only_(odd_steps_only), iterations_(iterations) {}
  int module_count() const override { return modules_; }
  ModuleStructure structure() const override { return ModuleStructure::kIndependent; }
  std::vector<double> predicted_weights() const override {
    return std::vector<double>(modules_, 1.0);
  }
  std::size_t state_bytes(int) const override { return sizeof(double); }
  void init_state(int, std::span<std::byte> s) const override { write(s, 0.5); }
  void run_module(int m, int step, int, std::span<std::byte> s) override {
    if (!runs(step)) return;
    if (m % 2 == 0) {
      std::this_thread::sleep_for(off_);
      return;
    }
    write(s, compute(read(s)));
  }
  void finish_step(int, ModuleStates&) override {}
  std::shared_ptr<const SerialReference> reference(int steps) const override {
    return std::make_shared<const SerialReference>(steps);
  }
  Verification verify_against(ModuleStates& states, int steps, const SerialReference&) override {
    double want = 0.5;
    for (int s = 0; s < steps; ++s)
      if (runs(s)) want = compute(want);
    Verification v{true, "odd modules as serial", 0, 0, 0, 0};
    for (int m = 1; m < modules_; m += 2) v.passed = v.passed && read(states.state(m)) == want;
    return v;
  }

 private:
  bool runs(int step) const { return !odd_steps_only_ || step % 2 == 1; }
  double compute(double x) const {
    for (int i = 0; i < iterations_; ++i) x = 3.7 * x * (1.0 - x);
    return x;
  }
  static double read(std::span<std::byte> s) {
    double x;
    std::memcpy(&x, s.data(), sizeof x);
    return x;
  }
  static void write(std::span<std::byte> s, double x) { std::memcpy(s.data(), &x, sizeof x); }
  int modules_;
  std::chrono::milliseconds off_;
  bool odd_steps_only_;
  int iterations_;  // of the odd modules' logistic map
};

// Threads outnumber cores: a module's cost is its CPU time, so time off the CPU does not land on
// whichever module was running (the wall clock, even scaled by the CPU/wall ratio, would give
// the sleeping module the larger share).
TEST(BspExecutor, OversubscribedModuleCostsLeaveOutTimeOffTheCpu) {
  const int P = omp_get_num_procs() + 1;
  // About 2 ms of CPU a computing module: a sleeping one's stray 0.3 ms (seen under ASan on a
  // loaded host) stays below it, and its 20 ms off the CPU far above.
  OffCpuWorkload w(2 * P, std::chrono::milliseconds(20), false, 2000000);
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan = testing::plan_for(P, 2, topo);
  testing::CollectSteps sink;
  const ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  ASSERT_TRUE(w.verify(store, x.steps_run).passed);
  for (const auto& r : sink.records)
    for (int m = 0; m < 2 * P; m += 2)
      EXPECT_LT(r.module_cost[m], r.module_cost[m + 1]) << "step " << r.step << " module " << m;
}

// Threads outnumber cores: a processor's busy time is its CPU time, also in a step after a short
// one, where a clock that skips the CPU clock after short stretches would count the 20 ms off it.
TEST(Executors, OversubscribedBusyTimeLeavesOutTimeOffTheCpuAfterAShortStep) {
  const int P = omp_get_num_procs() + 1;
  BspExecutor bsp;
  SelfScheduledExecutor self_scheduled(InStepSchedule::kOmpStatic, 1);
  for (Executor* executor :
       {static_cast<Executor*>(&bsp), static_cast<Executor*>(&self_scheduled)}) {
    OffCpuWorkload w(2 * P, std::chrono::milliseconds(20), true);
    ModuleStore store(w);
    const Topology topo(TopologyKind::kChain, P);
    testing::CollectSteps sink;
    const ExecutionResult x = executor->run(w, store, testing::plan_for(P, 4, topo), sink);
    ASSERT_TRUE(w.verify(store, x.steps_run).passed);
    for (const StepRecord& r : sink.records)
      for (int p = 0; p < P; ++p)  // at most two modules of about 1 ms CPU each
        EXPECT_LT(r.busy[p], 0.010) << "step " << r.step << " processor " << p;
  }
}

TEST(Verification, CatchesACorruptedModuleResult) {
  BlockSubstitution w(small_problem());
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 2);
  ExecutionPlan plan = testing::plan_for(2, 6, topo);
  testing::CollectSteps sink;
  ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  ASSERT_TRUE(w.verify(store, x.steps_run).passed);
  BlockSubstitution::iterate(store.state(4))[3] += 1e-6;  // one wrong value in one module
  Verification v = w.verify(store, x.steps_run);
  EXPECT_FALSE(v.passed) << v.detail;
  EXPECT_GT(v.error, v.tolerance);
}

TEST(Verification, ShortRunOfAWideProblemVerifies) {
  // The residual's 2-norm rises in the first steps here; the A-norm of the error falls.
  Params p;
  p.set("blocks", std::int64_t{8});
  p.set("width", std::int64_t{64});
  p.set("mean_lines", 32.0);
  BlockSubstitution w(resolve_params(BlockSubstitution::info().params, p));
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 2);
  ExecutionPlan plan = testing::plan_for(2, 10, topo);
  testing::CollectSteps sink;
  ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  Verification v = w.verify(store, x.steps_run);
  EXPECT_TRUE(v.passed) << v.detail;
  EXPECT_NE(v.detail.find("falls every step"), std::string::npos) << v.detail;
}

TEST(Verification, CatchesAStateSwappedBetweenModules) {
  BlockSubstitution w(small_problem());
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 2);
  ExecutionPlan plan = testing::plan_for(2, 4, topo);
  testing::CollectSteps sink;
  ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  auto a = store.state(2), b = store.state(3);
  const std::size_t n = std::min(a.size(), b.size());
  std::swap_ranges(a.begin(), a.begin() + n, b.begin());
  EXPECT_FALSE(w.verify(store, x.steps_run).passed);
}

}  // namespace
}  // namespace lbb
