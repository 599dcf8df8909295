// Horton 1993's test case T1 (16 subproblems and their communication graph, Fig. 3) and
// multilevel bisection along a workload's communication graph. Fig. 3 is not in the text: the
// graph below is reconstructed from Table 2's T1 transfers (docs/horton_t1.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "balancers/between_steps/multilevel.h"
#include "balancers/between_steps/parts/unit_balance.h"
#include "core/module_graph.h"
#include "executor_test_support.h"
#include "harness/exec/bsp_executor.h"
#include "workloads/barnes_hut.h"
#include "workloads/block_substitution.h"

namespace lbb {
namespace {

using Loads = std::vector<std::int64_t>;
using Move = std::tuple<std::int64_t, int, int>;  // (units, from, to), as Table 2 lists them

// The smallest graph consistent with Table 2, T1: every transfer joins neighbours.
ModuleGraph t1_graph() {
  const std::vector<std::pair<int, int>> edges = {
      {5, 13}, {6, 9},   {7, 8}, {0, 4}, {2, 7}, {3, 6}, {10, 12}, {0, 3},   {1, 2},  {4, 6},
      {9, 10}, {12, 14}, {0, 1}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}};
  std::vector<std::vector<int>> lists(16);
  for (auto [a, b] : edges) {
    lists[a].push_back(b);
    lists[b].push_back(a);
  }
  return ModuleGraph(lists);
}

Loads t1_loads() {
  Loads loads(16, 0);
  loads[0] = 16;  // "the load imbalance is created by processor p0 generating 16 extra units"
  return loads;
}

TransferPlan run_multilevel(const std::string& bisect, const Loads& loads, const Topology& topology,
                            const ModuleGraph* graph) {
  const std::vector<double> speed(loads.size(), 1.0);
  Params p;
  p.set("bisect", bisect);
  return plan_units("multilevel", p, {loads, speed, &topology, 0, graph});
}

std::vector<Move> moves(const TransferPhase& phase) {
  std::vector<Move> out;
  for (const auto& t : phase.transfers) out.emplace_back(t.units, t.from, t.to);
  std::sort(out.begin(), out.end(), [](const Move& a, const Move& b) {
    return std::tie(std::get<1>(a), std::get<2>(a)) < std::tie(std::get<1>(b), std::get<2>(b));
  });
  return out;
}

TEST(HortonT1, MultilevelGivesTable2PhasesAndTransfers) {
  const ModuleGraph graph = t1_graph();
  const Topology machine(TopologyKind::kComplete, 16);  // Algorithm 2 ignores the machine
  const TransferPlan plan = run_multilevel("communication", t1_loads(), machine, &graph);
  // Horton 1993, Table 2, T1: four phases, each transfer listed as (units, from, to).
  const std::vector<std::vector<Move>> table2 = {
      {{3, 5, 13}, {3, 6, 9}, {2, 7, 8}},
      {{4, 0, 4}, {4, 2, 7}, {4, 3, 6}, {1, 10, 12}},
      {{5, 0, 3}, {5, 1, 2}, {1, 6, 4}, {3, 9, 10}, {2, 12, 14}},
      {{6, 0, 1}, {4, 4, 5}, {1, 7, 6}, {1, 8, 9}, {1, 10, 11}, {2, 13, 12}, {1, 14, 15}}};
  ASSERT_EQ(plan.phases.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_EQ(moves(plan.phases[k]), table2[k]) << "phase " << k + 1;
  EXPECT_EQ(plan.final_loads, Loads(16, 1));  // "the solution l_i = 1"
  for (const auto& phase : plan.phases)
    for (const auto& t : phase.transfers) EXPECT_TRUE(graph.linked(t.from, t.to));
}

TEST(HortonT1, TopologyBisectionDoesNotFollowTheGraph) {
  // The same loads bisected along the machine (a chain) move work between subproblems T1 does
  // not link: the communication graph is what gives Table 2.
  const ModuleGraph graph = t1_graph();
  const Topology chain(TopologyKind::kChain, 16);
  const TransferPlan plan = run_multilevel("topology", t1_loads(), chain, &graph);
  EXPECT_EQ(plan.final_loads, Loads(16, 1));
  int off_graph = 0;
  for (const auto& phase : plan.phases)
    for (const auto& t : phase.transfers) off_graph += !graph.linked(t.from, t.to);
  EXPECT_GT(off_graph, 0);
}

TEST(HortonT1, CutTheGraphDoesNotCrossFallsBackToTheMachine) {
  // T1 does not link subproblems 2 and 3 (Table 2 never moves work between them), yet a load
  // on 2 alone must reach 3 in the last phase: through the machine's neighbours.
  const ModuleGraph graph = t1_graph();
  const Topology chain(TopologyKind::kChain, 16);
  Loads loads(16, 1);
  loads[2] = 2;
  loads[3] = 0;
  const TransferPlan plan = run_multilevel("communication", loads, chain, &graph);
  EXPECT_EQ(plan.final_loads, Loads(16, 1));
  ASSERT_EQ(plan.phases.size(), 4u);
  ASSERT_EQ(moves(plan.phases[3]), (std::vector<Move>{{1, 2, 3}}));
}

TEST(HortonT1, CommunicationBisectionNeedsAGraph) {
  const Topology chain(TopologyKind::kChain, 16);
  try {
    run_multilevel("communication", t1_loads(), chain, nullptr);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gives none"), std::string::npos) << e.what();
  }
}

TEST(InducedProcessorGraph, LinksOwnersOfLinkedModules) {
  // A chain of 12 modules in blocks of 3 induces the chain 0-1-2-3; owners 0,2,1,3 repeated
  // link every pair the chain's neighbours join.
  const ModuleGraph chain = ModuleGraph::chain(12);
  const std::vector<int> blocks = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  const ModuleGraph induced = induced_processor_graph(chain, blocks, 4);
  ASSERT_EQ(induced.modules(), 4);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_EQ(induced.linked(a, b), std::abs(a - b) == 1) << a << b;
  const std::vector<int> scattered = {0, 2, 0, 2, 1, 1, 3, 3, 3, 3, 3, 3};
  const ModuleGraph other = induced_processor_graph(chain, scattered, 4);
  EXPECT_TRUE(other.linked(0, 2));
  EXPECT_TRUE(other.linked(2, 1));
  EXPECT_TRUE(other.linked(1, 3));
  EXPECT_FALSE(other.linked(0, 1));
  EXPECT_FALSE(other.linked(0, 3));
  EXPECT_THROW(induced_processor_graph(chain, std::vector<int>(12, 4), 4), std::invalid_argument);
  EXPECT_THROW(induced_processor_graph(chain, std::vector<int>(11, 0), 4), std::invalid_argument);
}

// A workload's graph: Barnes-Hut on a fixed 4 x 4 grid, its cells owned so that the induced
// graph is not the machine's chain.
struct GridCase {
  Params params;
  BarnesHut workload;
  ModuleGraph graph;
  GridCase() : params(grid_params()), workload(params), graph(*workload.communication()) {}
  static Params grid_params() {
    Params p;
    p.set("particles", std::int64_t{2000});
    p.set("cells_per_side", std::int64_t{4});
    p.set("decomposition", std::string("grid"));
    return resolve_params(BarnesHut::info().params, p);
  }
};

TEST(MultilevelCommunication, MovesWorkOnlyAlongTheWorkloadsGraph) {
  GridCase c;
  ASSERT_EQ(c.graph.modules(), 16);
  EXPECT_TRUE(c.graph.linked(0, 1));  // cells linked across faces
  EXPECT_TRUE(c.graph.linked(0, 4));
  EXPECT_FALSE(c.graph.linked(0, 5));
  // Processor p owns the four cells of column p: processors 0 and 3 are neighbours on the
  // machine (a ring) but not in the problem.
  std::vector<int> owner(16);
  for (int m = 0; m < 16; ++m) owner[m] = m % 4;
  const ModuleGraph induced = induced_processor_graph(c.graph, owner, 4);
  EXPECT_FALSE(induced.linked(0, 3));
  const Topology ring(TopologyKind::kRing, 4);
  std::vector<double> cost = c.workload.predicted_weights(), speed(4, 1.0);
  std::vector<std::uint64_t> bytes(16, 64);
  LoadView view;
  view.cost = cost;
  view.bytes = bytes;
  view.speed = speed;
  view.owner = owner;
  view.topology = &ring;
  view.communication = &c.graph;
  MultilevelDiffusion balancer(Bisection::kCommunication);
  const UnitPlanOutcome out = balancer.outcome(view);
  ASSERT_TRUE(out.plan.moves_anything());
  for (const auto& phase : out.plan.phases)
    for (const auto& t : phase.transfers)
      EXPECT_TRUE(induced.linked(t.from, t.to)) << t.from << "->" << t.to;
  view.communication = nullptr;
  EXPECT_THROW(balancer.outcome(view), std::invalid_argument);
}

// The executor hands the workload's graph to the balancer: a probe records what it saw.
class GraphProbe final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    seen.push_back(v.communication ? v.communication->modules() : -1);
    if (v.communication) linked_01 = v.communication->linked(0, 1);
    return {};
  }
  std::vector<int> seen;
  bool linked_01 = false;
};

TEST(MultilevelCommunication, ExecutorPassesTheWorkloadsGraph) {
  Params p;
  p.set("blocks", std::int64_t{12});
  p.set("width", std::int64_t{8});
  BlockSubstitution w(resolve_params(BlockSubstitution::info().params, p));
  ModuleStore store(w);
  const Topology topo(TopologyKind::kChain, 3);
  ExecutionPlan plan = testing::plan_for(3, 3, topo);
  GraphProbe probe;
  plan.dynamic = &probe;
  testing::CollectSteps sink;
  BspExecutor().run(w, store, plan, sink);
  ASSERT_FALSE(probe.seen.empty());
  for (int modules : probe.seen) EXPECT_EQ(modules, 12);
  EXPECT_TRUE(probe.linked_01);  // the chain of blocks

  // And a real run of multilevel along it verifies.
  BlockSubstitution w2(resolve_params(BlockSubstitution::info().params, p));
  ModuleStore store2(w2);
  Params ml;
  ml.set("bisect", std::string("communication"));
  ml.set("min_gain", 0.0);
  auto balancer = make_balancer("multilevel", ml);
  plan.dynamic = balancer.get();
  plan.steps = 4;
  ExecutionResult x = BspExecutor().run(w2, store2, plan, sink);
  EXPECT_TRUE(w2.verify(store2, x.steps_run).passed);
}

}  // namespace
}  // namespace lbb
