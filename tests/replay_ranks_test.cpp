// Replay of a run across MPI ranks (harness/analysis/replay.h, harness/sim/sim_run.cpp): each step
// pays the ranks' exchange and a centralised decision's broadcast at the exchange's rates, a move
// across ranks one message at the network's rates, a move within a rank a copy at
// --latency/--bandwidth;
// a run of one shared memory (no ranks) is charged exactly as before; both pay the workload's
// recorded serial end of step.
#include <gtest/gtest.h>

#include <numeric>

#include "executor_test_support.h"
#include "harness/analysis/replay.h"
#include "harness/config/config_loader.h"
#include "harness/run/provenance.h"
#include "harness/run/runner.h"
#include "harness/sim/simulate_executor.h"
#include "test_support.h"
#include "workloads/synthetic_costs.h"

namespace lbb {
namespace {

// Every module costs 1 ms; each step the ranks exchanged 5000 B and rank 0 sent one 48 B decision.
class RecordedRanks final : public CostStream {
 public:
  const std::vector<double>& nominal(int, int) override { return costs_; }
  RankTraffic recorded_traffic(int) const override { return {5000, 1, 48}; }

 private:
  std::vector<double> costs_ = std::vector<double>(4, 1e-3);
};

class AllOnFirst final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    Decision d;
    d.act = true;
    d.owner.assign(v.modules(), 0);
    return d;
  }
};

// Module m to processor m: from processor 0, module 1 stays on rank 0, modules 2 and 3 cross.
class OneEach final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    Decision d;
    d.act = true;
    d.owner.resize(v.modules());
    std::iota(d.owner.begin(), d.owner.end(), 0);
    return d;
  }
};

// Two steps of 4 modules of 1000 B on 4 processors, all on processor 0 to start, spread at step 0.
std::vector<StepRecord> simulate(const SimSettings& settings) {
  Params given;
  given.set("modules", std::int64_t{4});
  given.set("state_bytes", std::int64_t{1000});
  SyntheticCosts workload(resolve_params(SyntheticCosts::info().params, given));
  ModuleStore store(workload);
  const Topology chain(TopologyKind::kChain, 4);
  AllOnFirst all_on_first;
  OneEach one_each;
  ExecutionPlan plan = testing::plan_for(4, 2, chain);
  plan.initial = &all_on_first;
  plan.dynamic = &one_each;
  testing::CollectSteps sink;
  SimulateExecutor(settings, std::make_shared<RecordedRanks>()).run(workload, store, plan, sink);
  return sink.records;
}

SimSettings charges(int rank_threads) {
  SimSettings s;
  s.measured_decisions = false;  // decisions free: the makespans are the formula's alone
  s.latency = 1e-6, s.bandwidth = 1e9;
  s.network_latency = 1e-4, s.network_bandwidth = 1e6;
  s.rank_exchange_latency = 3e-4, s.rank_exchange_bandwidth = 2e6;
  s.rank_threads = rank_threads;
  return s;
}

}  // namespace

// 2 ranks of 2 threads: a copy within rank 0 costs 1e-6 + 1000 / 1e9; a move to rank 1 1e-4 +
// 1000 / 1e6; each step's exchange (1 phase, 1 other rank: 1 message) 3e-4 + 5000 / 2e6 and the
// decision's broadcast 3e-4 + 48 / 2e6, both in the step's serial part.
TEST(ReplayRanks, ExchangeAndMovesAcrossRanksPayTheNetworkMovesWithinARankACopy) {
  const std::vector<StepRecord> r = simulate(charges(2));
  ASSERT_EQ(r.size(), 2u);
  const double copy = 1e-6 + 1e-6, cross = 1e-4 + 1e-3, serial = (3e-4 + 2.5e-3) + (3e-4 + 24e-6);
  ASSERT_EQ(r[0].proc_migration.size(), 4u);
  EXPECT_DOUBLE_EQ(r[0].proc_migration[0], 0.0);
  EXPECT_DOUBLE_EQ(r[0].proc_migration[1], copy);
  EXPECT_DOUBLE_EQ(r[0].proc_migration[2], cross);
  EXPECT_DOUBLE_EQ(r[0].proc_migration[3], cross);
  EXPECT_DOUBLE_EQ(r[0].metrics.end()[-5], copy + 2 * cross);  // sim_migration
  for (const StepRecord& s : r) {
    EXPECT_DOUBLE_EQ(s.serial, serial);
    EXPECT_DOUBLE_EQ(s.metrics.back(), serial);  // sim_exchange
  }
  EXPECT_DOUBLE_EQ(r[0].makespan, 4e-3 + serial);  // processor 0 ran all four; copies after
  EXPECT_EQ(r[1].migrations, 0);
  EXPECT_DOUBLE_EQ(r[1].makespan, 1e-3 + serial);
}

// No ranks (a thread run's replay): every move a copy, no exchange, whatever the network's rates.
TEST(ReplayRanks, WithoutRanksTheNetworkIsNotCharged) {
  SimSettings before = charges(0);
  before.network_latency = before.network_bandwidth = 0;
  before.rank_exchange_latency = before.rank_exchange_bandwidth = 0;
  const std::vector<StepRecord> threads = simulate(charges(0)), as_before = simulate(before);
  ASSERT_EQ(threads.size(), as_before.size());
  for (std::size_t s = 0; s < threads.size(); ++s) {
    EXPECT_EQ(threads[s].makespan, as_before[s].makespan);
    EXPECT_EQ(threads[s].proc_migration, as_before[s].proc_migration);
    EXPECT_EQ(threads[s].serial, 0.0);
  }
  EXPECT_EQ(threads[0].proc_migration, (std::vector<double>{0, 2e-6, 2e-6, 2e-6}));
}

// A real run of threads, replayed with and without network rates: the same predicted makespans.
TEST(ReplayRanks, ThreadRunsReplayAsBefore) {
  testing::TempDir dir;
  const std::string path = dir.file("threads");
  const Config config = load_config_text(
      "name: threads\n"
      "workload: { kind: block_substitution, blocks: 16, width: 8, mean_lines: 3, sd: 1.0, "
      "seed: 5 }\n"
      "platform: { processors: 2, topology: chain }\n"
      "execution: { steps: 4, record: modules }\n"
      "balancers: [{ dynamic: diffusion, min_gain: 0 }]\n",
      "threads.yaml");
  {
    ResultWriter archive(path, {});
    const RunOutcome out = execute_run(config.runs.front(), 0, &archive, gather_provenance());
    ASSERT_TRUE(out.ok()) << out.error;
  }
  SimSettings plain;
  plain.measured_decisions = false;
  SimSettings network = plain;
  network.network_latency = network.network_bandwidth = 1;
  network.rank_exchange_latency = network.rank_exchange_bandwidth = 1;
  const ResultReader archive(path);
  const auto a = replay_complete_runs(archive, plain), b = replay_complete_runs(archive, network);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].skipped, "");
  EXPECT_GT(a[0].predicted, 0);
  EXPECT_EQ(a[0].predicted, b[0].predicted);
  // The workload's serial end of step, which no balancer changes, is charged as it was recorded.
  const std::vector<double> serial = archive.read_series(a[0].run, "step/serial");
  ASSERT_EQ(a[0].steps.size(), serial.size());
  for (std::size_t s = 0; s < serial.size(); ++s) EXPECT_EQ(a[0].steps[s].serial, serial[s]);
  EXPECT_GT(std::accumulate(serial.begin(), serial.end(), 0.0), 0.0);
}

// Open MPI's placement, written by rank 0: threads per rank, and the most processors one host ran
// (a run's wall clock is comparable where that fits the host's processors).
TEST(ReplayRanks, PlacementFromTheRunsRanksAttribute) {
  const RankPlacement two_hosts = rank_placement("0:node1:2,1:node2:2", 4);
  EXPECT_EQ(two_hosts.threads, 2);
  EXPECT_EQ(two_hosts.busiest_host, 2);
  const RankPlacement one_host = rank_placement("0:a:1,1:a:1,2:b:1,3:a:1", 4);
  EXPECT_EQ(one_host.threads, 1);
  EXPECT_EQ(one_host.busiest_host, 3);
  EXPECT_THROW(rank_placement("0:a:2,1:a:1", 3), std::invalid_argument);  // uneven
  EXPECT_THROW(rank_placement("0:a:2,1:a:2", 6), std::invalid_argument);  // not P
  EXPECT_THROW(rank_placement("", 4), std::invalid_argument);
  EXPECT_THROW(rank_placement("0:a:x", 1), std::invalid_argument);
  EXPECT_THROW(rank_placement("0:2", 2), std::invalid_argument);  // no host
}

}  // namespace lbb
