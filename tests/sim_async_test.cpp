// The asynchronous simulation (harness/sim/sim_async_run.h): a replayed async_modelled run is
// reproduced, the dependency rule holds on the modelled clocks, every (module, step) runs once,
// modules are conserved, runs are deterministic for a seed, and utilization meets its analytic
// value where there is one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "balancers/async/predictive.h"
#include "executor_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/exec/async_run.h"
#include "harness/formats/trace_workload.h"
#include "harness/results/result_reader.h"
#include "harness/run/executor_registry.h"
#include "harness/run/provenance.h"
#include "harness/run/runner.h"
#include "test_support.h"

namespace lbb {
namespace {

struct Simulated {
  std::vector<StepRecord> records;
  std::map<std::string, double> attributes;
};

// A config's first run under its executor, as the runner makes it.
Simulated run_config(const std::string& yaml) {
  const Config config = load_config_text(yaml, "test.yaml");
  const RunSpec& spec = config.runs.front();
  const WorkloadInfo& info = *find_workload_kind(spec.workload);
  testing::CollectSteps sink;
  auto execution = choose_executor(spec, info).make(spec, info);
  execution->run(sink);
  Simulated out{std::move(sink.records), {}};
  for (const auto& a : execution->attributes()) out.attributes[a.name] = a.value;
  return out;
}

// Synthetic costs on a chain of `modules`, 16 processors, under `balancer`.
std::string chain(const std::string& workload, const std::string& execution,
                  const std::string& balancer, int processors = 16) {
  return "name: t\nworkload: { kind: synthetic, dependencies: chain, mean: 1, " + workload +
         " }\nplatform: { processors: " + std::to_string(processors) +
         ", topology: chain }\nexecution: { executor: simulate, record: modules, " + execution +
         " }\nbalancers: [ { " + balancer + " } ]\n";
}

const char* kPredictive = "static: block, dynamic: predictive, threshold: 1, safety_factor: 1";

double utilization_of(const std::vector<StepRecord>& records) {
  double busy = 0, span = 0;
  for (const StepRecord& r : records) {
    busy += std::accumulate(r.busy.begin(), r.busy.end(), 0.0);
    span += r.makespan;
  }
  return busy / (static_cast<double>(records.front().busy.size()) * span);
}

// A real async_modelled run of block substitution with a static partition is a function of its
// module costs alone (no decisions, no copies): simulated on those costs, replayed from the
// archive, the run must come out the same, its utilization and every step's modelled makespan.
// (Under the predictive balancer a real run also charges each take's measured decision and copy
// times, which the archive keeps per step, not per take: that run is not reproduced exactly.)
TEST(SimAsync, ReplayedAsyncModelledRunIsReproduced) {
  testing::TempDir dir;
  const std::string path = dir.file("real");
  const std::string workload =
      "workload: { kind: block_substitution, blocks: 24, width: 8, mean_lines: 3, sd: 1.0, "
      "seed: 5 }\nplatform: { processors: 4, topology: chain }\n";
  const Config real =
      load_config_text("name: real\n" + workload +
                           "execution: { steps: 12, record: modules, executor: async_modelled }\n"
                           "balancers: [ { static: binary_dissection } ]\n",
                       "real.yaml");
  RunOutcome measured;
  {
    ResultWriter archive(path, {});
    measured = execute_run(real.runs.front(), 0, &archive, gather_provenance());
    ASSERT_TRUE(measured.ok()) << measured.error;
  }
  const Simulated sim =
      run_config("name: sim\n" + workload +
                 "execution: { steps: 12, record: modules, executor: simulate, sim_async: true, "
                 "replay_set: '" +
                 path + "' }\nbalancers: [ { static: binary_dissection } ]\n");
  double real_utilization = -1;
  for (const auto& a : measured.record.figures)
    if (a.name == "utilization") real_utilization = a.value;
  ASSERT_GT(real_utilization, 0);
  EXPECT_NEAR(sim.attributes.at("utilization"), real_utilization, 1e-12 * real_utilization);
  const ResultReader archive(path);
  std::size_t rows = 0, cols = 0;
  const std::vector<double> makespan =
      archive.read_matrix(archive.runs().front().run, "step/makespan", rows, cols);
  ASSERT_EQ(sim.records.size(), rows);
  for (std::size_t s = 0; s < rows; ++s)
    EXPECT_NEAR(sim.records[s].makespan, makespan[s], 1e-9 * makespan[s]) << "step " << s;
}

// Equal costs, no balancer: P x k modules in blocks of k keep every processor busy from the
// start (utilization 1, makespan k steps); 10 modules on 4 (blocks of 3, 3, 2, 2 or so) are
// bounded by the most loaded processor: utilization M / (P max_p n_p), less at most (P - 1)
// steps of that processor for the pipeline to fill.
TEST(SimAsync, EqualCostsMeetTheAnalyticUtilization) {
  const int steps = 200;
  const std::string execution = "steps: 200, sim_async: true";
  const Simulated even = run_config(chain("modules: 64, sd: 0", execution, "static: block", 16));
  EXPECT_DOUBLE_EQ(even.attributes.at("utilization"), 1.0);
  EXPECT_DOUBLE_EQ(even.records.back().busy[0], 4.0);
  const Simulated uneven = run_config(chain("modules: 10, sd: 0", execution, "static: block", 4));
  const double u = uneven.attributes.at("utilization");
  EXPECT_LE(u, 10.0 / 12 + 1e-12);
  EXPECT_GE(u, 10.0 * steps / (4 * (3.0 * steps + 3 * 3)));
  EXPECT_EQ(uneven.attributes.at("modules_moved_per_step"), 0);
}

// No barrier: with costs redrawn every step, a processor's slow step is made up by its next, so
// the asynchronous run keeps its processors busier than bulk-synchronous steps of the same costs.
TEST(SimAsync, NoBarrierBeatsBulkSynchronousSteps) {
  const std::string costs = "modules: 64, sd: 1, redraw: true, seed: 3";
  const Simulated async = run_config(chain(costs, "steps: 100, sim_async: true", "static: block"));
  const Simulated bulk = run_config(chain(costs, "steps: 100", "static: block"));
  EXPECT_NEAR(utilization_of(async.records), async.attributes.at("utilization"), 1e-9);
  EXPECT_GT(async.attributes.at("utilization"), utilization_of(bulk.records) + 0.05);
}

// The predictive balancer moves modules; every step's owners are a valid assignment of all
// modules (conserved); the copies charged over the run are latency + bytes / bandwidth per take;
// utilization stays at most 1 and beats the block start's.
TEST(SimAsync, PredictiveMovesConserveModulesAndRaiseUtilization) {
  const std::string costs = "modules: 96, sd: 2, seed: 4, state_bytes: 1000";
  const std::string charges =
      "steps: 100, sim_decision: modelled, sim_latency: 0.01, "
      "sim_bandwidth: 1e6";
  const Simulated moved = run_config(chain(costs, charges, kPredictive));
  const Simulated fixed = run_config(chain(costs, charges + ", sim_async: true", "static: block"));
  std::int64_t takes = 0;
  double copies = 0;
  for (const StepRecord& r : moved.records) {
    ASSERT_EQ(r.module_owner.size(), 96u);
    for (int q : r.module_owner) ASSERT_TRUE(q >= 0 && q < 16);
    takes += r.migrations;
    copies += std::accumulate(r.proc_migration.begin(), r.proc_migration.end(), 0.0);
  }
  EXPECT_GT(takes, 0);
  EXPECT_NEAR(copies, static_cast<double>(takes) * (0.01 + 1000 / 1e6), 1e-9);
  const double u = moved.attributes.at("utilization");
  EXPECT_LE(u, 1.0);
  EXPECT_GT(u, fixed.attributes.at("utilization"));
  EXPECT_DOUBLE_EQ(moved.attributes.at("modules_moved_per_step"), takes / 100.0);
}

// The modelled schedule's choices pinned (a processor's ready module of the lowest step, then the
// lowest id, its list kept sorted through takes): the values the scan over all modules gave
// before per-processor lists replaced it (2026-11-23). Any change of rule moves them.
TEST(SimAsync, PredictiveScheduleIsPinned) {
  const Simulated moved = run_config(chain(
      "modules: 96, sd: 2, seed: 4, state_bytes: 1000",
      "steps: 100, sim_decision: modelled, sim_latency: 0.01, sim_bandwidth: 1e6", kPredictive));
  std::int64_t takes = 0;
  double makespan = 0;
  for (const StepRecord& r : moved.records) {
    takes += r.migrations;
    makespan += r.makespan;
  }
  EXPECT_EQ(takes, 962);
  EXPECT_NEAR(makespan, 1407.248130983395, 1e-9);
  EXPECT_NEAR(moved.attributes.at("utilization"), 0.9020100496060397, 1e-12);
}

TEST(SimAsync, SameSeedSameRunOtherSeedOtherRun) {
  auto run = [](int seed) {
    return run_config(chain("modules: 96, sd: 1, redraw: true, seed: " + std::to_string(seed),
                            "steps: 40, sim_decision: modelled, sim_decision_seconds: 0.01",
                            kPredictive));
  };
  const Simulated a = run(7), b = run(7), c = run(8);
  ASSERT_EQ(a.records.size(), 40u);
  for (std::size_t s = 0; s < a.records.size(); ++s) {
    EXPECT_EQ(a.records[s].makespan, b.records[s].makespan);
    EXPECT_EQ(a.records[s].module_owner, b.records[s].module_owner);
    EXPECT_EQ(a.records[s].module_cost, b.records[s].module_cost);
  }
  EXPECT_EQ(a.attributes.at("utilization"), b.attributes.at("utilization"));
  EXPECT_NE(a.attributes.at("utilization"), c.attributes.at("utilization"));
}

// AsyncRun's modelled order, with work that records each module step: every (module, step) runs
// once, never before its own previous step and its chain
// neighbours' previous steps ended, and a processor runs one thing at a time.
class RecordingWork final : public AsyncWork {
 public:
  struct Run {
    int m, s, p;
    double start, end;
  };
  explicit RecordingWork(int P) : load_(P) {}
  double run_module(int m, int s, int p, double start) override {
    const double cost = 0.5 + ((m * 7 + s * 13) % 11) / 5.0;  // uneven, changing every step
    runs.push_back({m, s, p, start, start + cost});
    return cost;
  }
  MigrationCharge migrate(int) override { return {8, 0.05}; }
  double decision_seconds(double) const override { return 0.01; }
  void close_step(int, double, ClosedStep&) override {}
  const LoadTally& load(int p) const override { return load_[p]; }
  std::vector<Run> runs;

 private:
  std::vector<LoadTally> load_;
};

TEST(SimAsync, DependencyRuleHoldsOnTheModelledClocks) {
  const int M = 40, P = 5, steps = 30;
  const ModuleGraph graph = ModuleGraph::chain(M);
  const Topology topology(TopologyKind::kChain, P);
  std::vector<int> owner(M);  // half the modules on processor 0: the others run short
  for (int m = 0; m < M; ++m) owner[m] = m < M / 2 ? 0 : 1 + (m - M / 2) * (P - 1) / (M / 2);
  Predictive predictive(2.0, 0.5);
  std::vector<double> weights(M, 1.0);
  predictive.start(graph, owner, weights, topology, steps);
  RecordingWork work(P);
  AsyncRun run(work, graph, P, owner, steps, &predictive, AsyncOrder::kModelled);
  run.processor(0);
  run.rethrow_if_failed();
  ASSERT_EQ(work.runs.size(), static_cast<std::size_t>(M * steps));
  EXPECT_GT(run.takes().size(), 0u);
  std::vector<double> end(static_cast<std::size_t>(M) * steps, -1);
  for (const auto& r : work.runs) {
    ASSERT_LT(end[r.m * steps + r.s], 0) << "module " << r.m << " ran step " << r.s << " twice";
    end[r.m * steps + r.s] = r.end;
  }
  for (const auto& r : work.runs) {
    if (r.s == 0) continue;
    for (int j : {r.m - 1, r.m, r.m + 1}) {
      if (j < 0 || j >= M) continue;
      EXPECT_GE(r.start, end[j * steps + r.s - 1]) << "module " << r.m << " step " << r.s;
    }
  }
  for (int p = 0; p < P; ++p) {
    std::vector<ClockSpan> spans = run.spans(p);
    std::sort(spans.begin(), spans.end(),
              [](const ClockSpan& a, const ClockSpan& b) { return a.start < b.start; });
    for (std::size_t k = 1; k < spans.size(); ++k) EXPECT_GE(spans[k].start, spans[k - 1].end);
  }
  std::vector<int> count(P, 0);
  for (int q : run.owner()) ++count[q];
  EXPECT_EQ(std::accumulate(count.begin(), count.end(), 0), M);
}

TEST(SimAsync, RefusesWhatItCannotSimulate) {
  auto fails_with = [](const std::string& yaml, const std::string& words) {
    try {
      run_config(yaml);
      ADD_FAILURE() << "ran: " << yaml;
    } catch (const std::exception& e) {  // ConfigError where validate sees it, else at the run
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  fails_with(
      "name: t\nworkload: { kind: synthetic, modules: 8 }\nplatform: { processors: 2 }\n"
      "execution: { executor: simulate, sim_async: true }\nbalancers: [ { static: block } ]\n",
      "dependencies");
  // Refused where the config is read (`validate`), at the balancer entry's place.
  try {
    load_config_text(chain("modules: 8", "sim_contention: 0.1", kPredictive, 2), "test.yaml");
    ADD_FAILURE() << "a contention model under asynchronous steps was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("test.yaml:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("contention"), std::string::npos) << e.what();
  }
  fails_with(chain("modules: 8", "sim_async: true", "dynamic: diffusion", 2), "predictive");
}

}  // namespace
}  // namespace lbb
