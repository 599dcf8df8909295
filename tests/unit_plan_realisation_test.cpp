// Unit-plan balancers do what they decide (issue: plans realised by concrete modules): each
// planned transfer is met within one module's cost, the predicted makespan is reported and must
// fall by more than min_gain, and on fixed costs the moves stop after the first decisions.
#include <gtest/gtest.h>

#include <random>

#include "balancers/balancer.h"
#include "balancers/between_steps/unit_balance.h"
#include "balancers/between_steps/unit_plan_balancer.h"
#include "balancers/load_snapshot.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"

namespace lbb {
namespace {

struct Instance : LoadSnapshot {
  Topology topology;
  Instance(TopologyKind kind, int processors, ModuleStructure s, std::mt19937_64& rng)
      : topology(kind, processors) {
    structure = s;
    const int modules = processors * (2 + static_cast<int>(rng() % 20));
    std::lognormal_distribution<double> skewed(0.0, 1.0);  // non-uniform: a few costly modules
    for (int m = 0; m < modules; ++m) cost.push_back(skewed(rng));
    bytes.assign(modules, 64);
    speed.assign(processors, 1.0);
    speed[rng() % processors] = 0.5;
    if (s == ModuleStructure::kSpatial) {
      dimensions = 2;
      for (int k = 0; k < 2 * modules; ++k)
        coords.push_back(std::uniform_real_distribution<>()(rng));
    }
    owner = block_owners(modules, processors);
    // Skew the start: the first processor also takes a random share of its neighbour's modules.
    for (int m = 0; m < modules; ++m)
      if (owner[m] == 1 && rng() % 2 == 0) owner[m] = 0;
    step = static_cast<int>(rng() % 100);
  }
};

std::unique_ptr<Balancer> make_unit_plan(const std::string& name, double min_gain) {
  Params p;
  p.set("min_gain", min_gain);
  return make_balancer(name, p);
}

TEST(UnitPlanRealisation, EveryTransferMetWithinOneModuleOnRandomCosts) {
  std::mt19937_64 rng(12);
  const TopologyKind kinds[] = {TopologyKind::kChain, TopologyKind::kMesh2d,
                                TopologyKind::kHypercube, TopologyKind::kRing};
  const ModuleStructure structures[] = {ModuleStructure::kChain, ModuleStructure::kSpatial,
                                        ModuleStructure::kIndependent};
  int checked = 0;
  for (const auto& name : unit_level_balancer_names())
    for (int trial = 0; trial < 40; ++trial) {
      const TopologyKind kind = kinds[trial % 4];
      const int processors = kind == TopologyKind::kHypercube ? 8 : 3 + trial % 14;
      const Instance in(kind, processors, structures[trial % 3], rng);
      const auto balancer = make_unit_plan(name, 0.0);
      const auto* unit_plan = dynamic_cast<const UnitPlanBalancer*>(balancer.get());
      ASSERT_NE(unit_plan, nullptr) << name;
      const UnitPlanOutcome o = unit_plan->outcome(in.view(in.topology));
      ASSERT_EQ(o.realised.size(), o.planned.size());
      for (std::size_t k = 0; k < o.planned.size(); ++k) {
        EXPECT_NEAR(o.realised[k], o.planned[k].cost, o.tolerance[k] * (1 + 1e-9))
            << name << " trial " << trial << ": " << o.planned[k].from << " -> " << o.planned[k].to;
        ++checked;
      }
      EXPECT_TRUE(o.plan_met) << name << " trial " << trial;
      // The reported makespans are those of the two assignments.
      EXPECT_DOUBLE_EQ(o.before, bottleneck(o.owner, in.cost, in.speed));
      EXPECT_DOUBLE_EQ(o.after, bottleneck(o.next, in.cost, in.speed));
    }
  EXPECT_GT(checked, 200);
}

TEST(UnitPlanRealisation, DeclinesWhatDoesNotLowerThePredictedMakespanEnough) {
  std::mt19937_64 rng(3);
  for (const auto& name : unit_level_balancer_names())
    for (int trial = 0; trial < 20; ++trial) {
      const Instance in(TopologyKind::kMesh2d, 6, ModuleStructure::kSpatial, rng);
      const Decision d = make_unit_plan(name, 0.05)->decide(in.view(in.topology));
      ASSERT_FALSE(std::isnan(d.predicted_before)) << name;
      EXPECT_DOUBLE_EQ(d.predicted_before, bottleneck(in.owner, in.cost, in.speed));
      if (d.act) {
        EXPECT_LT(d.predicted_after, 0.95 * d.predicted_before) << name;
        EXPECT_DOUBLE_EQ(d.predicted_after, bottleneck(d.owner, in.cost, in.speed)) << name;
      }
    }
}

TEST(UnitPlanRealisation, FixedCostsStopMigratingAfterTheFirstDecisions) {
  std::mt19937_64 rng(8);
  for (const auto& name : unit_level_balancer_names())
    for (int trial = 0; trial < 6; ++trial) {
      Instance in(trial % 2 ? TopologyKind::kChain : TopologyKind::kMesh2d, 8,
                  trial % 3 == 0 ? ModuleStructure::kChain : ModuleStructure::kSpatial, rng);
      const auto balancer = make_balancer(name, {});  // default min_gain
      int last_move = -1;
      for (int step = 0; step < 40; ++step) {
        in.step = step;
        const Decision d = balancer->decide(in.view(in.topology));
        if (!d.act) continue;
        last_move = step;
        in.owner = d.owner;
      }
      EXPECT_LT(last_move, 15) << name << " trial " << trial << " still moving at step "
                               << last_move;
    }
}

}  // namespace
}  // namespace lbb
