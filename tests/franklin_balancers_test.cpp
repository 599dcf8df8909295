// Franklin & Govindan 1995's random, diffusion and complete-redistribution balancers.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/ideal_loads.h"
#include "balancers/between_steps/parts/unit_balance.h"
#include "balancers/between_steps/redistribution.h"
#include "balancers/load_snapshot.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"

namespace lbb {
namespace {

using Loads = std::vector<std::int64_t>;

TransferPlan run(const std::string& method, const Params& params, const Topology& topology,
                 const Loads& loads, const std::vector<double>& speed, int step = 0) {
  return plan_units(method, params, {loads, speed, &topology, step});
}

Params with(std::initializer_list<std::pair<const char*, ParamValue>> values) {
  Params p;
  for (const auto& [k, v] : values) p.set(k, v);
  return p;
}

TEST(IdealLoads, LocalIdealIsTheSpeedShareOfTheNeighbourhood) {
  const Topology chain(TopologyKind::kChain, 3);
  const Loads loads = {0, 40, 0};
  const std::vector<double> speed = {1, 2, 1};
  const auto local = local_ideal_loads(loads, speed, chain);  // eq. 6
  EXPECT_DOUBLE_EQ(local[0], 40.0 / 3.0);                     // 1 / (1 + 2) of 0 + 40
  EXPECT_DOUBLE_EQ(local[1], 20.0);                           // 2 / (1 + 2 + 1) of 40
  EXPECT_DOUBLE_EQ(local[2], 40.0 / 3.0);
}

TEST(RandomBalancer, SendsAlphaOfTheExcessOverTheThresholdToOneNeighbour) {
  const Topology mesh(TopologyKind::kMesh2d, 16);
  Loads loads(16, 10);
  loads[5] = 90;  // mean 15: threshold 1.1 * 15 = 16.5, excess 73.5, alpha 0.5 -> 36 units
  const std::vector<double> speed(16, 1.0);
  const TransferPlan plan = run("random", with({{"seed", std::int64_t{4}}}), mesh, loads, speed);
  ASSERT_EQ(plan.phases.size(), 1u);
  ASSERT_EQ(plan.phases[0].transfers.size(), 1u);
  const UnitTransfer t = plan.phases[0].transfers[0];
  EXPECT_EQ(t.from, 5);
  EXPECT_EQ(t.units, 36);
  EXPECT_TRUE(mesh.adjacent(5, t.to));
}

TEST(RandomBalancer, DrawsDependOnSeedAndStepOnly) {
  const Topology mesh(TopologyKind::kMesh2d, 16);
  Loads loads(16, 0);
  for (int p = 0; p < 16; p += 2) loads[p] = 100;
  const std::vector<double> speed(16, 1.0);
  std::set<std::vector<int>> destinations;
  for (int step = 0; step < 20; ++step) {
    const auto a = run("random", with({{"seed", std::int64_t{9}}}), mesh, loads, speed, step);
    const auto b = run("random", with({{"seed", std::int64_t{9}}}), mesh, loads, speed, step);
    ASSERT_EQ(a.final_loads, b.final_loads);
    std::vector<int> to;
    for (const auto& t : a.phases[0].transfers) {
      EXPECT_TRUE(mesh.adjacent(t.from, t.to));
      to.push_back(t.to);
    }
    destinations.insert(to);
  }
  EXPECT_GT(destinations.size(), 10u);  // the draws vary from step to step
}

TEST(RandomBalancer, ThresholdIsSpeedAwareAndCanBeLocal) {
  const Topology chain(TopologyKind::kChain, 4);
  const std::vector<double> speed = {2, 1, 1, 1};
  // Processor 0 holds 40 % of the work on 40 % of the speed: at its global ideal, nothing moves.
  EXPECT_TRUE(run("random", {}, chain, {40, 20, 20, 20}, speed).phases.empty());
  // Globally processor 1 sends 0.5 (38 - 1.1 * 20) = 8 units; locally (eq. 6) its ideal is
  // w~_1 = 98 / 4 = 24.5 and it sends 0.5 (38 - 1.1 * 24.5) = 5.
  const auto global = run("random", {}, chain, {40, 38, 20, 2}, speed);
  const auto local =
      run("random", with({{"ideal", std::string("local")}}), chain, {40, 38, 20, 2}, speed);
  EXPECT_NE(global.final_loads, local.final_loads);
}

TEST(DiffusionBalancer, SendsTheExcessOverTheLocalIdealInProportionToDeficits) {
  const Topology chain(TopologyKind::kChain, 3);
  EXPECT_EQ(run("diffusion", {}, chain, {0, 30, 0}, {1, 1, 1}).final_loads, (Loads{10, 10, 10}));
  // Speeds 1, 2, 1: w~_1 = 20, each neighbour's share is 10 (eq. 9): loads follow speed.
  const auto plan = run("diffusion", {}, chain, {0, 40, 0}, {1, 2, 1});
  EXPECT_EQ(plan.final_loads, (Loads{10, 20, 10}));
  ASSERT_EQ(plan.phases.size(), 1u);
  // Below threshold x w~ nobody participates: 13 < 1.2 * w~_1 = 1.2 * 11.
  EXPECT_TRUE(run("diffusion", {}, chain, {10, 13, 10}, {1, 1, 1}).phases.empty());
  // Receivers are only neighbours below their share: processor 2 (at 30) gets nothing.
  const auto some = run("diffusion", {}, Topology(TopologyKind::kChain, 3), {0, 60, 30}, {1, 1, 1});
  ASSERT_EQ(some.phases.size(), 1u);
  ASSERT_EQ(some.phases[0].transfers.size(), 1u);
  EXPECT_EQ(some.phases[0].transfers[0].to, 0);
  EXPECT_EQ(some.phases[0].transfers[0].units, 30);  // 60 - w~_1 (= 30)
}

struct ModuleCase : LoadSnapshot {
  Topology topology;
  ModuleCase(int processors, std::vector<double> c, TopologyKind kind = TopologyKind::kChain)
      : topology(kind, processors) {
    cost = std::move(c);
    bytes.assign(cost.size(), 64);
    speed.assign(processors, 1.0);
    owner = block_owners(static_cast<int>(cost.size()), processors);
  }
  LoadView view(ModuleStructure as = ModuleStructure::kChain) const {
    LoadView v = LoadSnapshot::view(topology);
    v.structure = as;
    return v;
  }
};

TEST(Redistribution, ActsOnlyAboveTheThresholdAndThenRepartitionsFromScratch) {
  ModuleCase c(4, std::vector<double>(40, 1.0));
  auto block = make_balancer("redistribution", with({{"partitioner", std::string("cyclic")}}));
  EXPECT_FALSE(block->decide(c.view()).act);     // balanced: w_i = w-bar_i
  for (int m = 0; m < 10; ++m) c.cost[m] = 1.5;  // w_0 = 15 > 1.3 * 11.25 = 14.6
  const Decision d = block->decide(c.view());
  ASSERT_TRUE(d.act);
  EXPECT_FALSE(assignment_error(d.owner, 40, 4));
  for (int m = 0; m < 40; ++m) EXPECT_EQ(d.owner[m], m % 4);  // what cyclic gives from scratch
  for (int m = 0; m < 10; ++m) c.cost[m] = 1.4;  // 14 < 1.3 * 11 = 14.3: below the threshold
  EXPECT_FALSE(block->decide(c.view()).act);
}

TEST(Redistribution, AutoPicksThePartitionerForTheStructureOrSaysWhichIsMissing) {
  EXPECT_EQ(CompleteRedistribution::partitioner_for(ModuleStructure::kChain), "optimal_chain");
  EXPECT_EQ(CompleteRedistribution::partitioner_for(ModuleStructure::kSpatial), "orb");
  EXPECT_EQ(CompleteRedistribution::partitioner_for(ModuleStructure::kIndependent), "lpt");
  ModuleCase c(4, std::vector<double>(40, 1.0));
  for (int m = 0; m < 10; ++m) c.cost[m] = 3;
  for (auto structure :
       {ModuleStructure::kChain, ModuleStructure::kSpatial, ModuleStructure::kIndependent}) {
    const std::string needed = CompleteRedistribution::partitioner_for(structure);
    auto balancer = make_balancer("redistribution", {});
    if (find_balancer(needed)) {
      const Decision d = balancer->decide(c.view(structure));
      EXPECT_TRUE(d.act);
      EXPECT_FALSE(assignment_error(d.owner, 40, 4));
      EXPECT_LT(bottleneck(d.owner, c.cost, c.speed), bottleneck(c.owner, c.cost, c.speed));
    } else {
      try {
        balancer->decide(c.view(structure));
        ADD_FAILURE() << "no error although '" << needed << "' is not registered";
      } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("'" + needed + "' is not registered"),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

TEST(Redistribution, RefusesAnUnknownOrDynamicPartitioner) {
  EXPECT_THROW(make_balancer("redistribution", with({{"partitioner", std::string("nope")}})),
               ParamError);
  EXPECT_THROW(make_balancer("redistribution", with({{"partitioner", std::string("random")}})),
               ParamError);
}

TEST(Redistribution, HasNoUnitLevelForm) {
  const Topology chain(TopologyKind::kChain, 2);
  try {
    run("redistribution", {}, chain, {1, 2}, {1, 1});
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no unit-level form"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("multilevel"), std::string::npos);
  }
}

}  // namespace
}  // namespace lbb
