// The executor's in-step synchronisation (Zaki, Li & Parthasarathy 1997): a group stops when its
// fastest processor finishes, rebalances its unfinished modules and finishes the step; and
// distributed (redundant) decisions, computed by every thread, against centralised ones.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>

#include "balancers/balancer.h"
#include "balancers/partition/block.h"
#include "executor_test_support.h"
#include "harness/exec/bsp_executor.h"
#include "harness/exec/group_barrier.h"
#include "harness/results/result_reader.h"
#include "harness/run/runner.h"
#include "tests/test_support.h"
#include "workloads/block_substitution.h"

namespace lbb {
namespace {

// Modules that count their runs. State: runs, the last step run, an out-of-order flag and a
// value advanced by a logistic map (base (1 + (m mod 8) / 10) iterations per step, or base for
// every module when `equal`; base 5000 takes about 25 us). verify():
// every module ran once per step, in step order, and its value equals a serial recomputation.
class CountingWorkload final : public Workload {
 public:
  explicit CountingWorkload(int modules, int base = 5000, bool equal = false)
      : modules_(modules), base_(base), equal_(equal) {}
  int module_count() const override { return modules_; }
  ModuleStructure structure() const override { return ModuleStructure::kIndependent; }
  std::vector<double> predicted_weights() const override {
    std::vector<double> w(modules_);
    for (int m = 0; m < modules_; ++m) w[m] = iterations(m);
    return w;
  }
  std::size_t state_bytes(int) const override { return sizeof(State); }
  void init_state(int m, std::span<std::byte> s) const override {
    const State st{0, -1, 0, start(m)};
    std::memcpy(s.data(), &st, sizeof st);
  }
  void run_module(int m, int step, int, std::span<std::byte> s) override {
    State st;
    std::memcpy(&st, s.data(), sizeof st);
    if (st.last_step != step - 1) st.out_of_order = 1;
    st.last_step = step;
    ++st.runs;
    st.value = advance(st.value, iterations(m));
    std::memcpy(s.data(), &st, sizeof st);
  }
  void finish_step(int, ModuleStates&) override {}
  std::shared_ptr<const SerialReference> reference(int steps) const override {
    return std::make_shared<SerialReference>(steps);  // verify_against computes its own
  }
  Verification verify_against(ModuleStates& states, int steps, const SerialReference&) override {
    Verification v{true, "runs once per step, in order, values as serial", 0, 0, 0, 0};
    for (int m = 0; m < modules_; ++m) {
      State st;
      std::memcpy(&st, states.state(m).data(), sizeof st);
      double want = start(m);
      for (int s = 0; s < steps; ++s) want = advance(want, iterations(m));
      if (st.runs != steps || st.out_of_order || st.value != want) {
        v.passed = false;
        v.detail = "module " + std::to_string(m) + " ran " + std::to_string(st.runs) + " times";
      }
    }
    return v;
  }

 private:
  struct State {
    std::int64_t runs, last_step, out_of_order;
    double value;
  };
  int iterations(int m) const { return equal_ ? base_ : base_ + base_ / 10 * (m % 8); }
  static double start(int m) { return 0.1 + 1e-3 * m; }
  static double advance(double x, int n) {
    for (int i = 0; i < n; ++i) x = 3.7 * x * (1.0 - x);
    return x;
  }
  int modules_, base_;
  bool equal_;
};

// Forwards to a registered balancer and records every call: step, thread, the view's owners.
class Recording final : public Balancer {
 public:
  Recording(std::string_view name, const Params& params) : inner_(make_balancer(name, params)) {}
  struct Call {
    int step, thread;
    std::vector<int> owner;
    std::vector<double> work_done;
  };
  Decision decide(const LoadView& v) override {
    Call c{v.step,
           omp_get_thread_num(),
           {v.owner.begin(), v.owner.end()},
           {v.work_done.begin(), v.work_done.end()}};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      calls.push_back(std::move(c));
    }
    return inner_->decide(v);
  }
  bool redundant() const override { return inner_->redundant(); }
  SyncTrigger sync_trigger() const override { return inner_->sync_trigger(); }
  std::vector<Call> calls_in(int step) const {
    std::vector<Call> out;
    for (const Call& c : calls)
      if (c.step == step) out.push_back(c);
    return out;
  }
  std::vector<Call> calls;

 private:
  std::unique_ptr<Balancer> inner_;
  std::mutex mutex_;
};

struct Outcome {
  std::vector<StepRecord> records;
  ExecutionResult result;
  Verification verification;
};

Params group_of(int k, int max_syncs = 8) {
  Params p;
  p.set("group_size", std::int64_t{k});
  p.set("max_syncs", std::int64_t{max_syncs});
  return p;
}

Params syncs(int max_syncs) {
  Params p;
  p.set("max_syncs", std::int64_t{max_syncs});
  return p;
}

// Synchronisations per group in one step: each is triggered by exactly one processor.
std::vector<int> syncs_per_group(const StepRecord& rec, int group_size) {
  std::vector<int> out((rec.triggered.size() + group_size - 1) / group_size, 0);
  for (std::size_t p = 0; p < rec.triggered.size(); ++p) out[p / group_size] += rec.triggered[p];
  return out;
}

Outcome run(Workload& w, Balancer& dynamic, std::vector<double> speed, int steps) {
  ModuleStore store(w);
  const int P = static_cast<int>(speed.size());
  const Topology topo(TopologyKind::kChain, P);
  ExecutionPlan plan;
  plan.processors = P;
  plan.steps = steps;
  plan.topology = &topo;
  plan.speed = std::move(speed);
  plan.record_modules = true;
  plan.dynamic = &dynamic;
  testing::CollectSteps sink;
  Outcome out;
  out.result = BspExecutor().run(w, store, plan, sink);
  out.records = std::move(sink.records);
  EXPECT_TRUE(store.complete());
  out.verification = w.verify(store, out.result.steps_run);
  return out;
}

TEST(GroupBarrier, SubsetsOfTheTeamSynchroniseSeparately) {
  // Two groups of two threads, many rounds: after the barrier each thread sees its partner's
  // value of the same round, never an older one.
  constexpr int kRounds = 300;
  GroupBarrier first(2), second(2);
  std::vector<int> value(4, -1);
  int errors = 0;
#pragma omp parallel num_threads(4) reduction(+ : errors)
  {
    const int t = omp_get_thread_num();
    GroupBarrier& mine = t < 2 ? first : second;
    for (int r = 0; r < kRounds; ++r) {
      value[t] = r;
      mine.arrive_and_wait();
      errors += value[t ^ 1] != r;
      mine.arrive_and_wait();  // nobody writes round r + 1 before its partner read round r
    }
  }
  EXPECT_EQ(errors, 0);
}

TEST(GroupBarrier, SleepersOutnumberingCoresAreAllWokenEveryRound) {
  // 16 threads on this machine's 2 cores: many waits outlast the yields and sleep in the kernel; a
  // lost wake-up hangs the test; the last arrival's function runs once a round, before anyone
  // leaves.
  constexpr int kThreads = 16, kRounds = 2000;
  GroupBarrier barrier(kThreads);
  std::vector<int> value(kThreads, -1);
  int last_runs = 0, errors = 0;
#pragma omp parallel num_threads(kThreads) reduction(+ : errors)
  {
    const int t = omp_get_thread_num();
    for (int r = 0; r < kRounds; ++r) {
      value[t] = r;
      barrier.arrive_and_wait([&]() noexcept { ++last_runs; });
      errors += last_runs != r + 1;
      for (int q = 0; q < kThreads; ++q) errors += value[q] != r;
      barrier.arrive_and_wait();  // nobody writes round r + 1 before everyone read round r
    }
  }
  EXPECT_EQ(errors, 0);
  EXPECT_EQ(last_runs, kRounds);
}

TEST(InStepSync, EveryModuleRunsOncePerStepAndResultsVerify) {
  for (const char* name : {"gcdlb", "gddlb", "lcdlb", "lddlb"}) {
    CountingWorkload w(32, 25000);  // 0.1 ms modules: the slow processor stands out under load
    const bool local = name[0] == 'l';
    Recording balancer(name, local ? group_of(2) : Params{});
    // Ten times slower: where threads outnumber cores, a slow processor given the core first
    // could finish its modules before its partner, having run more of the phase on its own
    // clock, and rightly be given none (at 4 times slower lcdlb moved nothing in 2 of 20 runs).
    const Outcome r = run(w, balancer, {1.0, 0.1, 1.0, 1.0}, 6);
    EXPECT_TRUE(r.verification.passed) << name << ": " << r.verification.detail;
    ASSERT_EQ(r.records.size(), 6u);
    EXPECT_GT(r.result.migrations, 0) << name;  // the slow processor's modules moved
    EXPECT_FALSE(balancer.calls.empty()) << name;
    for (const StepRecord& rec : r.records) {
      double slowest = 0;
      for (int p = 0; p < 4; ++p) {
        EXPECT_GE(rec.idle[p], -1e-12) << name;
        slowest = std::max(slowest, rec.busy[p] + rec.proc_balance[p] + rec.proc_migration[p]);
      }
      // The modelled makespan holds the waiting at the synchronisation and the decision.
      EXPECT_GE(rec.makespan, slowest - 1e-12) << name;
      EXPECT_LE(rec.ideal, rec.makespan) << name;
      // Every group synchronises at least once a step (its fastest finishes), at most max_syncs.
      for (int n : syncs_per_group(rec, local ? 2 : 4)) {
        EXPECT_GE(n, 1) << name;
        EXPECT_LE(n, 8) << name;
      }
    }
  }
}

TEST(InStepSync, TheFastestProcessorTriggersAndHasNothingLeft) {
  CountingWorkload w(64, 25000);  // about 0.1 ms per module: 1.6 ms per processor, 16 ms on 3
  Recording balancer("gcdlb", syncs(1));  // the first synchronisation of each step only
  const Outcome r = run(w, balancer, {1.0, 1.0, 1.0, 0.1}, 4);
  ASSERT_TRUE(r.verification.passed) << r.verification.detail;
  // Step 0 runs the block partition: processor 3, ten times slower, does not finish first.
  EXPECT_EQ(r.records[0].triggered[3], 0);
  std::vector<int> held = block_owners(64, 4);  // the assignment the step starts with
  for (const StepRecord& rec : r.records) {
    const auto first = std::find(rec.triggered.begin(), rec.triggered.end(), 1);
    const int trigger = static_cast<int>(first - rec.triggered.begin());
    ASSERT_LT(trigger, 4);
    for (const Recording::Call& c : balancer.calls_in(rec.step)) {
      // The view holds the unfinished modules: none of them is the trigger's, which has run all
      // the modules it held.
      EXPECT_EQ(std::count(c.owner.begin(), c.owner.end(), trigger), 0);
      EXPECT_EQ(c.work_done[trigger], std::count(held.begin(), held.end(), trigger));
    }
    held = rec.module_owner;  // who ran each module: the next step starts from it
  }
  // The first synchronisation gives the slow processor's unfinished modules to the others.
  ASSERT_FALSE(balancer.calls_in(0).empty());
  const auto& step0 = r.records[0].module_owner;
  EXPECT_LT(std::count(step0.begin(), step0.end(), 3), 16);
}

TEST(InStepSync, LocalSchemesMoveModulesOnlyWithinTheirGroup) {
  for (const char* name : {"lcdlb", "lddlb"}) {
    // Modules of about 0.5 ms over 8 steps: a step spans several time slices of a loaded host,
    // so the 4x slower processor cannot finish first in every step by being scheduled while its
    // partner waits (it once did on 25 us modules: nothing moved and the test failed). And the
    // rates now use the trigger's wall clock, so a partner that was descheduled sends modules.
    CountingWorkload w(32, 100000);
    Recording balancer(name, group_of(2));
    const Outcome r = run(w, balancer, {1.0, 0.25, 0.25, 1.0}, 8);
    ASSERT_TRUE(r.verification.passed) << name << ": " << r.verification.detail;
    EXPECT_GT(r.result.migrations, 0) << name;
    // Block partition: modules 0-15 in group {0, 1}, 16-31 in group {2, 3}, for good.
    for (const StepRecord& rec : r.records)
      for (int m = 0; m < 32; ++m) EXPECT_EQ(rec.module_owner[m] / 2, m / 16) << name;
    for (int m = 0; m < 32; ++m) EXPECT_EQ(r.result.final_owner[m] / 2, m / 16) << name;
  }
}

// Zaki, Li & Parthasarathy 1997: a group synchronises whenever its fastest finishes, again after
// each decision that moved modules, at most max_syncs times a step; and no scheme leaves a
// processor empty while another holds two or more modules (issue 12: gcdlb went 64:0).
TEST(InStepSync, RepeatedSynchronisationsUpToTheBoundNeverEmptyAProcessor) {
  for (const char* name : {"gcdlb", "gddlb", "lcdlb", "lddlb"})
    for (const std::vector<double>& speed :
         {std::vector<double>{1.0, 0.5}, std::vector<double>{1.0, 0.5, 0.5, 1.0}}) {
      const int P = static_cast<int>(speed.size());
      const bool local = name[0] == 'l';
      const int group = local ? 2 : P, bound = 3;
      CountingWorkload w(64, 25000);  // about 0.1 ms a module
      Recording balancer(name, local ? group_of(2, bound) : syncs(bound));
      // 12 steps: where threads outnumber cores (4 on this host's 2, slower under ASan) a step's
      // second synchronisation depends on the scheduler; 6 steps once all went without one.
      const Outcome r = run(w, balancer, speed, 12);
      ASSERT_TRUE(r.verification.passed) << name << ": " << r.verification.detail;
      int repeated = 0;
      for (const StepRecord& rec : r.records) {
        for (int n : syncs_per_group(rec, group)) {
          EXPECT_GE(n, 1) << name << " P = " << P << " step " << rec.step;
          EXPECT_LE(n, bound) << name << " P = " << P << " step " << rec.step;
          repeated += n > 1;
        }
        // The assignment a step ends with (and the next starts from).
        std::vector<int> held(P, 0);
        for (int q : rec.module_owner) ++held[q];
        const int most = *std::max_element(held.begin(), held.end());
        for (int q = 0; q < P; ++q)
          EXPECT_TRUE(held[q] > 0 || most < 2)
              << name << " P = " << P << " step " << rec.step << ": processor " << q
              << " empty while another holds " << most;
      }
      // Block start, speeds 1 : 0.5: the first step's first decision moves modules, so the
      // group synchronises again when its fastest finishes again.
      EXPECT_GE(repeated, 1) << name << " P = " << P << ": never synchronised twice in a step";
    }
}

// Issue 35: 64 equal modules on 8 threads, one at half speed, where threads outnumber cores
// (this host has 2). Rated on the wall clock, a processor preempted since the synchronisation
// lost its modules to one that ran alone: gcdlb ended steps [8, 16, 8, 7, 7, 7, 7, 4]. Fair is
// 64 / 7.5 = 8.5 each and 4.3 on the slow one; every step must end within 3 of that on the
// fast ones (at most 11: a fresh clone's ASan run on 2 cores once ended a step with one at 11),
// and the slow one neither gains (at most its first 8) nor empties. How far below 8 it gets is
// the scheduler's: under ASan at load 4 it held 2 for six steps, at load 8 one run in ten made no
// move in step 0 (kept 8), so a tighter bound (3 to 6) failed on load, not on a defect.
TEST(InStepSync, PreemptionDoesNotPileEqualModulesOnOneProcessor) {
  if (omp_get_num_procs() >= 8) GTEST_SKIP() << "the case needs 8 threads outnumbering cores";
  CountingWorkload w(64, 100000, true);  // about 0.5 ms a module: a step spans time slices
  Recording balancer("gcdlb", Params{});
  const Outcome r = run(w, balancer, {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5}, 8);
  ASSERT_TRUE(r.verification.passed) << r.verification.detail;
  for (const StepRecord& rec : r.records) {
    std::vector<int> held(8, 0);
    for (int q : rec.module_owner) ++held[q];
    std::string counts;
    for (int n : held) counts += std::to_string(n) + " ";
    for (int q = 0; q < 7; ++q) EXPECT_LE(held[q], 11) << "step " << rec.step << ": " << counts;
    EXPECT_GE(held[7], 1) << "step " << rec.step << ": " << counts;
    EXPECT_LE(held[7], 8) << "step " << rec.step << ": " << counts;
  }
}

TEST(InStepSync, DistributedSchemesDecideOnEveryThreadCentralisedOnOne) {
  for (const char* name : {"gcdlb", "gddlb"}) {
    const bool distributed = std::string(name) == "gddlb";
    CountingWorkload w(32);
    Recording balancer(name, syncs(1));  // one decision a step at most
    const Outcome r = run(w, balancer, {1.0, 0.25, 1.0, 1.0}, 6);
    ASSERT_TRUE(r.verification.passed) << name << ": " << r.verification.detail;
    int decided = 0, distinct = 0;
    for (const StepRecord& rec : r.records) {
      const auto calls = balancer.calls_in(rec.step);
      const auto& b = rec.proc_balance;
      if (calls.empty()) {  // everyone had finished: no decision, no balance time
        EXPECT_EQ(*std::max_element(b.begin(), b.end()), 0.0) << name;
        continue;
      }
      ++decided;
      std::set<int> threads;
      for (const auto& c : calls) {
        threads.insert(c.thread);
        EXPECT_EQ(c.owner, calls[0].owner) << name;  // the same view
      }
      if (distributed) {
        EXPECT_EQ(calls.size(), 4u) << name;
        EXPECT_EQ(threads.size(), 4u) << name;
        for (double t : b) EXPECT_GT(t, 0.0) << name;  // each from its own clock
        distinct += std::set<double>(b.begin(), b.end()).size() > 1;
        EXPECT_DOUBLE_EQ(rec.balance, *std::max_element(b.begin(), b.end()));
      } else {
        EXPECT_EQ(calls.size(), 1u) << name;
        EXPECT_EQ(calls[0].thread, 0) << name;  // the group's first processor decides
        EXPECT_GT(b[0], 0.0) << name;
        for (double t : b) EXPECT_EQ(t, b[0]) << name;  // all waited for it
        EXPECT_EQ(rec.balance, b[0]);
      }
      EXPECT_GT(rec.balance_wall, 0.0) << name;
    }
    EXPECT_GE(decided, 1) << name;
    if (distributed) {
      EXPECT_GE(distinct, 1) << "four clocks never differ";
    }
  }
}

// Moves every module to the next processor, computed redundantly by every thread between steps.
class RedundantRotation final : public Balancer {
 public:
  explicit RedundantRotation(bool deterministic) : deterministic_(deterministic) {}
  Decision decide(const LoadView& v) override {
    calls.fetch_add(1);
    Decision d{true, {v.owner.begin(), v.owner.end()}, 1};
    for (int& q : d.owner) q = (q + 1) % v.processors();
    if (!deterministic_ && omp_get_thread_num() == 1) std::swap(d.owner.front(), d.owner.back());
    return d;
  }
  bool redundant() const override { return true; }
  std::atomic<int> calls{0};

 private:
  bool deterministic_;
};

TEST(RedundantDecision, BetweenStepsEveryThreadDecidesAndOneResultIsApplied) {
  CountingWorkload w(12);
  RedundantRotation rotation(true);
  const Outcome r = run(w, rotation, {1.0, 1.0, 1.0}, 4);
  EXPECT_TRUE(r.verification.passed) << r.verification.detail;
  EXPECT_EQ(rotation.calls.load(), 3 * 4);
  for (const StepRecord& rec : r.records) {
    EXPECT_EQ(rec.migrations, 12);  // every module, once
    for (double t : rec.proc_balance) EXPECT_GT(t, 0.0);
  }
}

TEST(RedundantDecision, DifferingResultsAreRefused) {
  CountingWorkload w(12);
  RedundantRotation rotation(false);
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 3);
  ExecutionPlan plan;
  plan.processors = 3;
  plan.steps = 2;
  plan.topology = &topo;
  plan.speed.assign(3, 1.0);
  plan.dynamic = &rotation;
  testing::CollectSteps sink;
  EXPECT_THROW(BspExecutor().run(w, store, plan, sink), std::logic_error);
}

// Through the runner into the archive: proc/balance is every processor's own decision time for
// gddlb, the decider's for every processor under gcdlb; proc/triggered and step/balance_wall.
TEST(InStepSync, ArchivedBalanceTimesFollowTheScheme) {
  testing::TempDir dir;
  const std::string path = dir.file("sync");
  const Provenance provenance = gather_provenance();
  std::vector<RunSpec> specs;
  for (const char* name : {"gcdlb", "gddlb"}) {
    RunSpec spec;
    spec.name = "sync";
    spec.workload = "block_substitution";
    Params p;
    p.set("blocks", std::int64_t{32});
    p.set("width", std::int64_t{16});
    p.set("mean_lines", 16.0);
    spec.workload_params = resolve_params(BlockSubstitution::info().params, p);
    spec.processors = 4;
    spec.speeds = {1.0, 1.0, 0.25, 1.0};
    spec.steps = 4;
    spec.balancer.dynamic_name = name;
    spec.balancer.label = name;
    specs.push_back(spec);
  }
  {
    ResultWriter archive(path, {});
    for (const RunSpec& spec : specs) {
      const RunOutcome o = execute_run(spec, 0, &archive, provenance);
      ASSERT_TRUE(o.ok()) << spec.balancer.label << ": " << o.error << o.verification.detail;
    }
  }
  ResultReader reader(path);
  const auto runs = reader.runs();
  ASSERT_EQ(runs.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    std::size_t rows = 0, cols = 0;
    const auto balance = reader.read_matrix(runs[k].run, "proc/balance", rows, cols);
    const auto triggered = reader.read_matrix(runs[k].run, "proc/triggered", rows, cols);
    const auto wall = reader.read_series(runs[k].run, "step/balance_wall");
    ASSERT_EQ(rows, 4u);
    ASSERT_EQ(cols, 4u);
    int decided = 0;
    for (std::size_t s = 0; s < rows; ++s) {
      const double* b = &balance[s * cols];
      double triggers = 0;
      for (std::size_t p = 0; p < cols; ++p) triggers += triggered[s * cols + p];
      EXPECT_GE(triggers, 1.0);  // one synchronisation a step at least, max_syncs (8) at most
      EXPECT_LE(triggers, 8.0);
      if (*std::max_element(b, b + cols) == 0) continue;
      ++decided;
      EXPECT_GT(wall[s], 0.0);
      for (std::size_t p = 0; p < cols; ++p) {
        EXPECT_GT(b[p], 0.0);
        if (k == 0) {
          EXPECT_EQ(b[p], b[0]);  // gcdlb: the decider's time, charged to all
        }
      }
    }
    EXPECT_GE(decided, 1);
  }
}

}  // namespace
}  // namespace lbb
