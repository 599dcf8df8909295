// The in-step scheduling baselines on module workloads: results equal the bulk-synchronous
// run's, every module runs exactly once per phase per step, and the records say who ran what.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <set>

#include "config_test_support.h"
#include "executor_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/exec/bsp_executor.h"
#include "harness/exec/self_scheduled_executor.h"
#include "test_support.h"
#include "tests/serial_driver.h"

namespace lbb {
namespace {

struct Schedule {
  std::string label;
  ScheduleChoice choice;
};

// The OpenMP schedules, then OMP_SCHEDULE's and every loop self-scheduling technique at its
// default parameters.
std::vector<Schedule> all_schedules() {
  std::vector<Schedule> all = {
      {"omp_static", {InStepSchedule::kOmpStatic, 1, LoopTechnique::kSS, {}}},
      {"omp_dynamic(1)", {InStepSchedule::kOmpDynamic, 1, LoopTechnique::kSS, {}}},
      {"omp_dynamic(3)", {InStepSchedule::kOmpDynamic, 3, LoopTechnique::kSS, {}}},
      {"omp_guided(2)", {InStepSchedule::kOmpGuided, 2, LoopTechnique::kSS, {}}},
      {"omp_tasks", {InStepSchedule::kOmpTasks, 1, LoopTechnique::kSS, {}}},
  };
  for (const ScheduleInfo& info : schedule_registry())
    if (info.kind == InStepSchedule::kChunked || info.kind == InStepSchedule::kOmpRuntime)
      all.push_back({info.name, schedule_choice(info.name, resolve_params(info.params, {}))});
  return all;
}

// Every module's state bytes after a run, and its verification.
struct ScheduledOutcome {
  Verification verification;
  std::vector<std::vector<std::byte>> states;
  std::vector<StepRecord> records;
  std::size_t workload_metrics = 0;
};

ScheduledOutcome run(std::string_view workload, std::initializer_list<std::string_view> settings,
                     int steps, int P, Executor& executor) {
  auto w = testing::make_workload(workload, settings);
  ModuleStore store(*w);
  const Topology topology(TopologyKind::kChain, P);
  testing::CollectSteps sink;
  const ExecutionResult x = executor.run(*w, store, testing::plan_for(P, steps, topology), sink);
  ScheduledOutcome o{
      w->verify(store, x.steps_run), {}, std::move(sink.records), w->step_metrics().size()};
  for (int m = 0; m < store.size(); ++m)
    o.states.emplace_back(store.state(m).begin(), store.state(m).end());
  return o;
}

// The thread each iteration of an OpenMP static loop over `modules` goes to.
std::vector<int> static_distribution(int modules, int P) {
  std::vector<int> thread(modules, -1);
#pragma omp parallel for schedule(static) num_threads(P)
  for (int m = 0; m < modules; ++m) thread[m] = omp_get_thread_num();
  return thread;
}

TEST(SelfScheduledExecutor, EveryScheduleGivesTheBulkSynchronousResult) {
  struct Case {
    const char* workload;
    std::initializer_list<std::string_view> settings;
    int steps;
  };
  const Case cases[] = {
      {"block_substitution", {"blocks=16", "width=16", "mean_lines=4", "seed=3"}, 8},
      {"matmul", {"n=90", "r=40", "m=30", "block_rows=8"}, 3},
      {"trfd", {"n=10"}, 3},
  };
  for (const Case& c : cases)
    for (int P : {3, 4}) {
      BspExecutor bsp;
      const ScheduledOutcome reference = run(c.workload, c.settings, c.steps, P, bsp);
      ASSERT_TRUE(reference.verification.passed) << c.workload << reference.verification.detail;
      for (const Schedule& s : all_schedules()) {
        SCOPED_TRACE(std::string(c.workload) + " " + s.label + " P=" + std::to_string(P));
        SelfScheduledExecutor executor(s.choice);
        const ScheduledOutcome o = run(c.workload, c.settings, c.steps, P, executor);
        EXPECT_TRUE(o.verification.passed) << o.verification.detail;
        EXPECT_EQ(o.verification.checksum, reference.verification.checksum);
        ASSERT_EQ(o.states.size(), reference.states.size());
        for (std::size_t m = 0; m < o.states.size(); ++m)
          EXPECT_TRUE(o.states[m] == reference.states[m]) << "state of module " << m;
        EXPECT_EQ(o.records.size(), static_cast<std::size_t>(c.steps));
      }
    }
}

// Passes every call on to a registered workload, counting who ran each module in each phase.
class CountingScheduledWorkload final : public Workload {
 public:
  CountingScheduledWorkload(std::unique_ptr<Workload> inner, int steps)
      : inner_(std::move(inner)),
        runs_(static_cast<std::size_t>(steps) * inner_->phases() * inner_->module_count()),
        thread_(runs_.size(), -1) {}
  int module_count() const override { return inner_->module_count(); }
  ModuleStructure structure() const override { return inner_->structure(); }
  std::vector<double> predicted_weights() const override { return inner_->predicted_weights(); }
  int phases() const override { return inner_->phases(); }
  std::size_t state_bytes(int m) const override { return inner_->state_bytes(m); }
  void init_state(int m, std::span<std::byte> s) const override { inner_->init_state(m, s); }
  void run_module(int m, int step, int phase, std::span<std::byte> s) override {
    const std::size_t i = index(m, step, phase);
    runs_[i].fetch_add(1);
    thread_[i] = omp_get_thread_num();
    inner_->run_module(m, step, phase, s);
  }
  void finish_step(int step, ModuleStates& s) override { inner_->finish_step(step, s); }
  std::vector<StepMetric> step_metrics() const override { return inner_->step_metrics(); }
  std::vector<double> step_metric_values(int step) const override {
    return inner_->step_metric_values(step);
  }
  std::shared_ptr<const SerialReference> reference(int steps) const override {
    return inner_->reference(steps);
  }
  Verification verify_against(ModuleStates& s, int steps, const SerialReference& r) override {
    return inner_->verify_against(s, steps, r);
  }

  std::size_t index(int m, int step, int phase) const {
    return (static_cast<std::size_t>(step) * phases() + phase) * module_count() + m;
  }
  int runs(int m, int step, int phase) const { return runs_[index(m, step, phase)].load(); }
  int thread(int m, int step, int phase) const { return thread_[index(m, step, phase)]; }

 private:
  std::unique_ptr<Workload> inner_;
  std::vector<std::atomic<int>> runs_;
  std::vector<int> thread_;
};

// Conservation, counted by the workload itself, and owners that are the threads that really
// ran the modules (of a two-phase step: in the first phase).
TEST(SelfScheduledExecutor, EveryModuleRunsOncePerPhaseOnTheRecordedThread) {
  const int P = 4, warmup = 2, steps = 5;
  for (const char* name : {"block_substitution", "trfd"})
    for (const Schedule& s : all_schedules()) {
      SCOPED_TRACE(std::string(name) + " " + s.label);
      auto inner = std::string(name) == "trfd"
                       ? testing::make_workload(name, {"n=10"})
                       : testing::make_workload(name, {"blocks=16", "width=16", "mean_lines=4"});
      CountingScheduledWorkload w(std::move(inner), warmup + steps);
      ModuleStore store(w);
      const Topology topology(TopologyKind::kChain, P);
      ExecutionPlan plan = testing::plan_for(P, steps, topology);
      plan.warmup = warmup;
      testing::CollectSteps sink;
      SelfScheduledExecutor executor(s.choice);
      const ExecutionResult x = executor.run(w, store, plan, sink);
      EXPECT_EQ(x.steps_run, warmup + steps);
      EXPECT_EQ(x.migrations, 0);
      EXPECT_EQ(x.bytes_moved, 0);
      EXPECT_EQ(x.final_owner, static_distribution(w.module_count(), P));
      ASSERT_EQ(sink.records.size(), static_cast<std::size_t>(steps));
      std::int64_t remote = 0;
      for (int step = 0; step < warmup + steps; ++step)
        for (int ph = 0; ph < w.phases(); ++ph)
          for (int m = 0; m < w.module_count(); ++m) {
            ASSERT_EQ(w.runs(m, step, ph), 1) << "module " << m << " step " << step;
            if (step >= warmup) remote += w.thread(m, step, ph) != x.final_owner[m];
          }
      EXPECT_EQ(executor.remote_runs(), remote);
      for (const StepRecord& r : sink.records) {
        const int step = r.step + warmup;
        ASSERT_EQ(r.module_owner.size(), static_cast<std::size_t>(w.module_count()));
        for (int m = 0; m < w.module_count(); ++m) {
          EXPECT_EQ(r.module_owner[m], w.thread(m, step, 0))
              << "module " << m << " step " << r.step;
          EXPECT_GE(r.module_cost[m], 0.0);
        }
        EXPECT_EQ(r.metrics.back(), [&] {
          std::int64_t n = 0;
          for (int ph = 0; ph < w.phases(); ++ph)
            for (int m = 0; m < w.module_count(); ++m)
              n += w.thread(m, step, ph) != x.final_owner[m];
          return static_cast<double>(n);
        }());
      }
      EXPECT_TRUE(w.verify(store, x.steps_run).passed);
    }
}

TEST(SelfScheduledExecutor, StaticOwnersAreTheOpenMPStaticDistribution) {
  for (int P : {3, 4}) {
    SelfScheduledExecutor executor(InStepSchedule::kOmpStatic, 1);
    const ScheduledOutcome o =
        run("block_substitution", {"blocks=14", "width=8", "mean_lines=3"}, 6, P, executor);
    const std::vector<int> expected = static_distribution(14, P);
    for (const StepRecord& r : o.records) {
      EXPECT_EQ(r.module_owner, expected) << "P=" << P << " step " << r.step;
      EXPECT_EQ(r.metrics.back(), 0.0);  // states were placed where the static loop runs them
    }
    EXPECT_EQ(executor.remote_runs(), 0);
  }
}

// omp_runtime hands the loop to the runtime's schedule (OMP_SCHEDULE, or omp_set_schedule):
// under a static one its owners are the OpenMP static distribution, every step.
TEST(SelfScheduledExecutor, RuntimeScheduleIsTheOneTheRuntimeIsSet) {
  omp_sched_t kind;
  int chunk = 0;
  omp_get_schedule(&kind, &chunk);
  omp_set_schedule(omp_sched_static, 0);
  SelfScheduledExecutor executor(InStepSchedule::kOmpRuntime, 1);
  const ScheduledOutcome o =
      run("block_substitution", {"blocks=14", "width=8", "mean_lines=3"}, 4, 3, executor);
  omp_set_schedule(kind, chunk);
  ASSERT_TRUE(o.verification.passed) << o.verification.detail;
  for (const StepRecord& r : o.records)
    EXPECT_EQ(r.module_owner, static_distribution(14, 3)) << "step " << r.step;
  EXPECT_EQ(executor.name(), "omp_runtime");
}

TEST(SelfScheduledExecutor, DynamicOwnersVaryOverStepsAndCoverValidThreads) {
  // Modules of tens of microseconds: no thread can take a whole step alone before the others
  // wake up, so the threads' shares change from step to step.
  const int P = 4;
  SelfScheduledExecutor executor(InStepSchedule::kOmpDynamic, 1);
  const ScheduledOutcome o =
      run("block_substitution", {"blocks=16", "width=64", "mean_lines=24"}, 30, P, executor);
  ASSERT_TRUE(o.verification.passed) << o.verification.detail;
  std::set<std::vector<int>> distinct;
  std::set<int> threads;
  for (const StepRecord& r : o.records) {
    for (int q : r.module_owner) {
      ASSERT_GE(q, 0);
      ASSERT_LT(q, P);
      threads.insert(q);
    }
    distinct.insert(r.module_owner);
  }
  EXPECT_GE(distinct.size(), 2u);
  EXPECT_GE(threads.size(), 2u);
}

TEST(SelfScheduledExecutor, RecordsAreConsistent) {
  for (const char* name : {"block_substitution", "trfd"})
    for (const Schedule& s : all_schedules()) {
      SCOPED_TRACE(std::string(name) + " " + s.label);
      SelfScheduledExecutor executor(s.choice);
      const ScheduledOutcome o =
          std::string(name) == "trfd"
              ? run(name, {"n=10"}, 4, 3, executor)
              : run(name, {"blocks=16", "width=16", "mean_lines=4"}, 4, 3, executor);
      for (const StepRecord& r : o.records) {
        double max_busy = 0, sum = 0, module_sum = 0;
        for (int p = 0; p < 3; ++p) {
          max_busy = std::max(max_busy, r.busy[p]);
          sum += r.busy[p];
          EXPECT_GT(r.busy[p], 0.0);  // every thread has work: at least creating tasks
          EXPECT_GE(r.idle[p], -1e-12);
          EXPECT_EQ(r.proc_migration[p], 0.0);
          EXPECT_EQ(r.proc_balance[p], 0.0);
        }
        for (double c : r.module_cost) module_sum += c;
        // Costs are wall times shrunk to each thread's CPU time: never more than busy.
        EXPECT_LE(module_sum, sum * (1 + 1e-9));
        // The sum over phases of the slowest thread: of one phase, the busiest thread's time.
        if (std::string(name) == "trfd")
          EXPECT_GE(r.makespan, max_busy + r.serial - 1e-12);
        else
          EXPECT_DOUBLE_EQ(r.makespan, max_busy + r.serial);
        EXPECT_LE(r.ideal, r.makespan);
        EXPECT_DOUBLE_EQ(r.ideal, sum / 3);
        EXPECT_EQ(r.migrations, 0);
        EXPECT_EQ(r.bytes_moved, 0);
        EXPECT_EQ(r.balance, 0.0);
        EXPECT_EQ(r.metrics.size(), o.workload_metrics + executor.metrics().size());
      }
    }
}

TEST(SelfScheduledExecutor, EmulatedLoadIsAppliedToTheThreadThatRuns) {
  auto w = testing::make_workload("block_substitution", {"blocks=12", "width=16"});
  ModuleStore store(*w);
  const Topology topology(TopologyKind::kChain, 3);
  ExecutionPlan plan = testing::plan_for(3, 4, topology);
  plan.speed = {1.0, 0.5, 1.0};
  plan.external_load.max.assign(static_cast<std::size_t>(plan.processors), 1.0);
  plan.external_load.persist_s = 1e-4;
  testing::CollectSteps sink;
  SelfScheduledExecutor(InStepSchedule::kOmpDynamic, 1).run(*w, store, plan, sink);
  bool loaded = false;
  for (const StepRecord& r : sink.records) {
    double weighted = 0;
    for (int p = 0; p < 3; ++p) {
      EXPECT_GE(r.external_load[p], 0.0);
      EXPECT_LE(r.external_load[p], 1.0);
      loaded |= r.external_load[p] > 0;
      weighted += r.busy[p] * plan.speed[p];
    }
    EXPECT_DOUBLE_EQ(r.ideal, weighted / 2.5);  // nominal work over the speeds
  }
  EXPECT_TRUE(loaded);
  EXPECT_TRUE(w->verify(store, 4).passed);
}

TEST(SelfScheduledExecutor, RefusesBalancersAndBadChunks) {
  EXPECT_THROW(SelfScheduledExecutor(InStepSchedule::kOmpDynamic, 0), std::invalid_argument);
  EXPECT_THROW(SelfScheduledExecutor(InStepSchedule::kAssigned, 1), std::invalid_argument);
  auto w = testing::make_workload("block_substitution", {"blocks=8"});
  ModuleStore store(*w);
  const Topology topology(TopologyKind::kChain, 2);
  ExecutionPlan plan = testing::plan_for(2, 2, topology);
  std::unique_ptr<Balancer> lpt = make_balancer("lpt", Params{});
  plan.initial = lpt.get();
  testing::CollectSteps sink;
  EXPECT_THROW(SelfScheduledExecutor(InStepSchedule::kOmpStatic, 1).run(*w, store, plan, sink),
               std::invalid_argument);
}

using testing::config_error_of;

const char* kScheduledHead =
    "workload: { kind: block_substitution, blocks: 8 }\n"
    "platform: { processors: 2 }\n";

TEST(ScheduleConfig, ModuleWorkloadsTakeEverySchedule) {
  testing::TempDir dir;
  const Config c = load_config(dir.write("c.yaml", std::string(kScheduledHead) + R"(balancers:
  - { schedule: omp_static }
  - { schedule: omp_dynamic, chunk: [1, 2] }
  - { schedule: omp_guided, chunk: 3 }
  - { schedule: omp_tasks }
)"));
  ASSERT_EQ(c.runs.size(), 5u);
  EXPECT_EQ(c.runs[0].balancer.label, "omp_static");
  EXPECT_EQ(c.runs[2].balancer.label, "omp_dynamic(chunk=2)");
  const ScheduleChoice guided =
      schedule_choice(c.runs[3].balancer.schedule_name, c.runs[3].balancer.schedule_params);
  EXPECT_EQ(guided.kind, InStepSchedule::kOmpGuided);
  EXPECT_EQ(guided.chunk, 3);
  EXPECT_EQ(schedule_choice("omp_tasks", c.runs[4].balancer.schedule_params).kind,
            InStepSchedule::kOmpTasks);
  EXPECT_EQ(schedule_choice("", Params{}).kind, InStepSchedule::kAssigned);
  EXPECT_THROW(schedule_choice("omp_auto", Params{}), std::invalid_argument);
}

TEST(ScheduleConfig, BadScheduleEntriesAreRefusedWithTheirPosition) {
  EXPECT_EQ(config_error_of(std::string(kScheduledHead) +
                            "balancers:\n  - { schedule: omp_dynamic, chunk: 0 }\n"),
            "FILE:4:37: chunk must be >= 1, got 0");
  EXPECT_EQ(config_error_of(std::string(kScheduledHead) +
                            "balancers:\n  - { schedule: omp_guided, chunk: x }\n"),
            "FILE:4:36: chunk must be an integer");
  const std::string unknown_param = config_error_of(
      std::string(kScheduledHead) + "balancers:\n  - { schedule: omp_static, chunk: 2 }\n");
  EXPECT_EQ(unknown_param.substr(0, unknown_param.find(" (")),
            "FILE:4:29: unknown parameter 'chunk' for schedule omp_static");
  const std::string unknown =
      config_error_of(std::string(kScheduledHead) + "balancers:\n  - { schedule: omp_auto }\n");
  EXPECT_EQ(unknown.substr(0, unknown.find(" (")), "FILE:4:17: unknown schedule 'omp_auto'");
  EXPECT_EQ(
      config_error_of(std::string(kScheduledHead) +
                      "balancers:\n  - { schedule: omp_tasks, static: lpt }\n"),
      "FILE:4:5: a schedule entry takes no 'static:' or 'dynamic:': the threads take the work "
      "as they go");
}

}  // namespace
}  // namespace lbb
