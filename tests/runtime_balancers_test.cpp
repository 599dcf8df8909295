// The between-step strategies of today's runtimes (greedy, greedy_refine, refine, metis, scotch,
// gossip, hierarchical) against hand-computed cases, then each one in the simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "balancers/between_steps/metis.h"
#include "balancers/between_steps/parts/graph_partition_balancer.h"
#include "balancers/load_snapshot.h"
#include "balancers/partition/scotch.h"
#include "config_test_support.h"
#include "core/assignment.h"
#include "core/module_graph.h"
#include "executor_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"

namespace lbb {
namespace {

struct RuntimeCase {
  LoadSnapshot loads;
  Topology topology;
  RuntimeCase(std::vector<double> cost, std::vector<int> owner, std::vector<double> speed)
      : topology(TopologyKind::kComplete, static_cast<int>(speed.size())) {
    loads.cost = std::move(cost);
    loads.owner = std::move(owner);
    loads.speed = std::move(speed);
    loads.bytes.assign(loads.cost.size(), 8);
  }
  Decision decide(const std::string& name, Params params = {}) const {
    return make_balancer(name, params)->decide(loads.view(topology));
  }
};

int moved(const Decision& d, const std::vector<int>& before) {
  if (!d.act) return 0;
  int n = 0;
  for (std::size_t m = 0; m < before.size(); ++m) n += d.owner[m] != before[m];
  return n;
}

// Graham 1969's rule: 5 -> p0, 4 -> p1, 3 -> p1 (4 < 5), 3 -> p0 (5 < 7), 3 -> p1 (7 < 8).
TEST(RuntimeBalancers, GreedyPutsTheLargestOnTheLeastLoaded) {
  const RuntimeCase c({5, 4, 3, 3, 3}, {0, 0, 0, 0, 0}, {1, 1});
  const Decision d = c.decide("greedy");
  ASSERT_TRUE(d.act);
  EXPECT_EQ(d.owner, (std::vector<int>{0, 1, 1, 0, 1}));
  EXPECT_DOUBLE_EQ(d.predicted_before, 18);
  EXPECT_DOUBLE_EQ(d.predicted_after, 10);
  // Speeds 1 and 0.5: the third module of 2 finishes at 4 on either, the slower only then.
  EXPECT_EQ(RuntimeCase({2, 2, 2}, {0, 0, 0}, {1, 0.5}).decide("greedy").owner,
            (std::vector<int>{0, 0, 1}));
}

// Costs 3, 1, 1, 1 on two processors, all on p0: the average is 3, so p0's excess of 3 leaves
// in one move, the module of 3. Greedy reaches the same makespan by moving the other three.
TEST(RuntimeBalancers, RefineMovesTheFewestModules) {
  const RuntimeCase c({3, 1, 1, 1}, {0, 0, 0, 0}, {1, 1});
  const Decision refine = c.decide("refine");
  ASSERT_TRUE(refine.act);
  EXPECT_EQ(refine.owner, (std::vector<int>{1, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(refine.predicted_after, 3);
  const Decision greedy = c.decide("greedy");
  EXPECT_DOUBLE_EQ(greedy.predicted_after, 3);
  EXPECT_EQ(moved(greedy, c.loads.owner), 3);
  // Within the threshold nothing moves.
  EXPECT_FALSE(RuntimeCase({3, 1, 1, 1}, {0, 1, 1, 1}, {1, 1}).decide("refine").act);
}

// p0 holds 5, 3, 1, 1, 1, 1 (12), p1 4, p2 2: average 6. No module sheds the excess of 6 alone
// and 5 fits nowhere; 3 goes to p2 (room 4), then the 1s fill p1 (room 2) and p2 (room 1):
// four moves, the fewest that bring p0 to 6.
TEST(RuntimeBalancers, RefineTakesTheLargestThatFitsWhenNoneSufficesAlone) {
  const RuntimeCase c({5, 3, 1, 1, 1, 1, 4, 2}, {0, 0, 0, 0, 0, 0, 1, 2}, {1, 1, 1});
  const Decision d = c.decide("refine", [] {
    Params p;
    p.set("threshold", 1.0);
    return p;
  }());
  ASSERT_TRUE(d.act);
  EXPECT_EQ(moved(d, c.loads.owner), 4);
  EXPECT_EQ(d.owner[0], 0);  // the 5 stays
  EXPECT_EQ(d.owner[1], 2);
  EXPECT_DOUBLE_EQ(d.predicted_after, 6);
}

// Module 0 (3) already sits alone on p1: greedy taking any gain renumbers everything (4 moves
// for none), and declines under its default min_gain; greedy_refine keeps every module where it
// is, at the same makespan.
TEST(RuntimeBalancers, GreedyRefineKeepsModulesThatFitWhereTheyAre) {
  const RuntimeCase c({3, 1, 1, 1}, {1, 0, 0, 0}, {1, 1});
  Params any_gain;
  any_gain.set("min_gain", 0.0);
  EXPECT_EQ(moved(c.decide("greedy", any_gain), c.loads.owner), 4);
  EXPECT_FALSE(c.decide("greedy").act);
  const Decision d = c.decide("greedy_refine");
  EXPECT_FALSE(d.act);
  EXPECT_DOUBLE_EQ(d.predicted_after, 3);
  // A module that does not fit moves: all four on p0.
  const Decision all = RuntimeCase({3, 1, 1, 1}, {0, 0, 0, 0}, {1, 1}).decide("greedy_refine");
  EXPECT_EQ(all.owner, (std::vector<int>{0, 1, 1, 1}));
}

// The graph partitioners between steps, METIS and Scotch, on a 16 x 16 grid of costs in
// [0.5, 1.5]: every part within its imbalance bound of its speed's share, and far fewer links cut
// than a cyclic assignment's.
TEST(RuntimeBalancers, GraphPartitionersRespectTheirBalanceConstraint) {
  const int extents[] = {16, 16};
  const ModuleGraph grid = ModuleGraph::grid(extents);
  for (const char* name : {"metis", "scotch"})
    for (const std::vector<double>& speed :
         {std::vector<double>{1, 1, 1, 1}, std::vector<double>{1, 1, 2}}) {
      const int P = static_cast<int>(speed.size());
      std::vector<double> cost(256);
      for (int m = 0; m < 256; ++m) cost[m] = 0.5 + (m * 37 % 101) / 100.0;
      std::vector<int> cyclic(256);
      for (int m = 0; m < 256; ++m) cyclic[m] = m % P;
      RuntimeCase c(cost, cyclic, speed);
      LoadView v = c.loads.view(c.topology);
      v.communication = &grid;
      Params every;  // cyclic is balanced already: take the partition whatever it gains
      every.set("min_gain", 0.0);
      const Decision d = make_balancer(name, BalancerKind::kDynamic, every)->decide(v);
      ASSERT_TRUE(d.act) << name;
      const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
      const double speeds = std::accumulate(speed.begin(), speed.end(), 0.0);
      std::vector<double> load(P, 0.0);
      for (int m = 0; m < 256; ++m) load[d.owner[m]] += cost[m];
      for (int p = 0; p < P; ++p)
        EXPECT_LE(load[p], 1.05 * total * speed[p] / speeds) << name << " processor " << p;
      auto cut = [&](const std::vector<int>& owner) {
        int n = 0;
        for (int m = 0; m < 256; ++m)
          for (int k : grid.neighbours(m)) n += owner[m] != owner[k];
        return n / 2;
      };
      EXPECT_LT(cut(d.owner), cut(cyclic) / 4) << name;
    }
}

// The graph partitioners' parts are renumbered among processors of equal speed: given its own
// partition with the two speed-1 processors' labels swapped, each moves nothing.
TEST(RuntimeBalancers, GraphPartitionersKeepModulesOnTheirProcessors) {
  const int extents[] = {16, 16};
  const ModuleGraph grid = ModuleGraph::grid(extents);
  std::vector<double> cost(256);
  for (int m = 0; m < 256; ++m) cost[m] = 0.5 + (m * 37 % 101) / 100.0;
  for (const char* name : {"metis", "scotch"}) {
    RuntimeCase c(cost, std::vector<int>(256, 0), {1, 1, 2});
    LoadView v = c.loads.view(c.topology);
    v.communication = &grid;
    auto balancer = make_balancer(name, BalancerKind::kDynamic, Params{});
    const Decision first = balancer->decide(v);
    ASSERT_TRUE(first.act) << name;
    std::vector<int> swapped = first.owner;
    for (int& p : swapped) p = p == 2 ? 2 : 1 - p;
    ASSERT_NE(swapped, first.owner) << name;
    c.loads.owner = swapped;
    v = c.loads.view(c.topology);
    v.communication = &grid;
    EXPECT_EQ(
        parts_in_place(std::string(name) == "metis" ? metis_owners : scotch_owners, v, 1.05, 1),
        swapped)
        << name;
    EXPECT_FALSE(balancer->decide(v).act) << name;
  }
}

// Eight processors, 64 unit modules all on p0 and p1 (average 8): the gossip spreads the six
// idle processors' loads, and a few decisions, each applied, balance every processor at 8,
// the same way every time for a seed, under either criterion.
TEST(RuntimeBalancers, GossipConvergesOnAHandCase) {
  for (const char* criterion : {"grapevine", "tempered"}) {
    SCOPED_TRACE(criterion);
    std::vector<int> owner(64);
    for (int m = 0; m < 64; ++m) owner[m] = m / 32;
    RuntimeCase c(std::vector<double>(64, 1.0), owner, std::vector<double>(8, 1.0));
    Params p;
    p.set("criterion", std::string(criterion));
    p.set("seed", std::int64_t{5});
    auto gossip = make_balancer("gossip", p);
    int decisions = 0;
    double makespan = 32;
    std::vector<std::vector<int>> history;
    for (; decisions < 10 && makespan > 8; ++decisions) {
      c.loads.step = decisions;
      const Decision d = gossip->decide(c.loads.view(c.topology));
      EXPECT_LE(d.predicted_after, d.predicted_before);
      if (d.act) {  // a round whose gossip reached no overloaded processor moves nothing
        ASSERT_FALSE(assignment_error(d.owner, 64, 8));
        c.loads.owner = d.owner;
        makespan = d.predicted_after;
      }
      history.push_back(c.loads.owner);
    }
    EXPECT_DOUBLE_EQ(makespan, 8);
    EXPECT_LE(decisions, 5);
    c.loads.owner = owner;
    c.loads.step = 0;
    EXPECT_EQ(make_balancer("gossip", p)->decide(c.loads.view(c.topology)).owner, history[0]);
  }
}

// Sixteen processors, 64 unit modules all on p0 (average 4): knowing every underloaded processor,
// p0 sends to more than two of them; with knowledge capped at 2 it hears of two at most, and
// sends to no others.
TEST(RuntimeBalancers, GossipSendsOnlyToTheProcessorsItKeeps) {
  RuntimeCase c(std::vector<double>(64, 1.0), std::vector<int>(64, 0),
                std::vector<double>(16, 1.0));
  auto receivers = [&](std::int64_t knowledge) {
    Params p;
    p.set("knowledge", knowledge);
    const Decision d = c.decide("gossip", p);
    std::vector<int> to(d.owner.begin(), d.owner.end());
    std::sort(to.begin(), to.end());
    to.erase(std::unique(to.begin(), to.end()), to.end());
    return static_cast<int>(to.size()) - 1;  // p0 keeps some
  };
  EXPECT_GT(receivers(0), 2);
  EXPECT_GE(receivers(2), 1);
  EXPECT_LE(receivers(2), 2);
}

// The default bounds knowledge (memory linear in P, issue 52): 2,048 processors, 8,192 unit
// modules all on p0 (average 4): p0 hears of at most 32 underloaded processors and sends to no
// others; keeping all (knowledge 0), it sends to more.
TEST(RuntimeBalancers, GossipKeepsBoundedKnowledgeByDefault) {
  RuntimeCase c(std::vector<double>(8192, 1.0), std::vector<int>(8192, 0),
                std::vector<double>(2048, 1.0));
  auto receivers = [&](const Params& p) {
    const Decision d = c.decide("gossip", p);
    std::vector<int> to(d.owner.begin(), d.owner.end());
    std::sort(to.begin(), to.end());
    to.erase(std::unique(to.begin(), to.end()), to.end());
    return static_cast<int>(to.size()) - 1;  // p0 keeps some
  };
  Params all;
  all.set("knowledge", std::int64_t{0});
  const int bounded = receivers({});
  EXPECT_GE(bounded, 1);
  EXPECT_LE(bounded, 32);
  EXPECT_GT(receivers(all), 32);
}

// Each strategy in the simulator on drifting synthetic costs: the run completes, every step's
// owners are a valid assignment, and the last step's makespan beats never balancing.
TEST(RuntimeBalancers, EachRunsInTheSimulator) {
  auto last = [](const std::string& balancer) {
    const std::vector<StepRecord> records = testing::first_run_steps(
        "name: t\nworkload: { kind: synthetic, modules: 256, model: drift, drift_sd: 0.3, "
        "seed: 4 }\nplatform: { processors: 8, speeds: [1, 1, 1, 1, 0.5, 0.5, 1, 1] }\n"
        "execution: { executor: simulate, record: modules, steps: 6 }\n"
        "balancers: [ { dynamic: " +
        balancer + " } ]\n");
    EXPECT_EQ(records.size(), 6u) << balancer;
    for (const StepRecord& r : records)
      EXPECT_FALSE(assignment_error(r.module_owner, 256, 8)) << balancer;
    return records.back().makespan;
  };
  const double none = last("none");
  for (const char* name :
       {"greedy", "greedy_refine", "refine", "metis", "scotch", "gossip", "hierarchical"})
    EXPECT_LT(last(name), none) << name;
}

}  // namespace
}  // namespace lbb
