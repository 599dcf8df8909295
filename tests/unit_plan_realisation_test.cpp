// Unit-plan balancers do what they decide (issue: plans realised by concrete modules): each
// planned transfer is met within one module's cost, the predicted makespan is reported and must
// fall by more than min_gain, and on fixed costs the moves stop after the first decisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/unit_balance.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"
#include "balancers/load_snapshot.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"

namespace lbb {
namespace {

struct PlanInstance : LoadSnapshot {
  Topology topology;
  PlanInstance(TopologyKind kind, int processors, ModuleStructure s, std::mt19937_64& rng)
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
  const auto names = unit_level_balancer_names();
  for (const char* needed : {"diffusion_horton", "multilevel", "diffusion", "random"})
    EXPECT_NE(std::find(names.begin(), names.end(), needed), names.end()) << needed;
  for (const auto& name : names) {
    const int checked_before = checked;
    for (int trial = 0; trial < 40; ++trial) {
      const TopologyKind kind = kinds[trial % 4];
      const int processors = kind == TopologyKind::kHypercube ? 8 : 3 + trial % 14;
      const PlanInstance in(kind, processors, structures[trial % 3], rng);
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
    EXPECT_GT(checked - checked_before, 40) << name << ": too few planned transfers checked";
  }
}

TEST(UnitPlanRealisation, DeclinesWhatDoesNotLowerThePredictedMakespanEnough) {
  std::mt19937_64 rng(3);
  for (const auto& name : unit_level_balancer_names())
    for (int trial = 0; trial < 20; ++trial) {
      const PlanInstance in(TopologyKind::kMesh2d, 6, ModuleStructure::kSpatial, rng);
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
      PlanInstance in(trial % 2 ? TopologyKind::kChain : TopologyKind::kMesh2d, 8,
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

// nbody.yaml's decomposition: 256 modules of equal body count along a Morton curve over a
// Plummer-like cluster, so modules are small and many, their centres follow the curve and the
// dense middle costs more (more tree interactions per body).
struct CurveCluster : LoadSnapshot {
  Topology topology;
  CurveCluster(int processors, std::mt19937_64& rng) : topology(TopologyKind::kMesh2d, processors) {
    structure = ModuleStructure::kSpatial;
    dimensions = 2;
    std::lognormal_distribution<double> spread(0.0, 0.15);
    for (int m = 0; m < 256; ++m) {
      double x = 0, y = 0;  // cell (x, y) of a 16 x 16 grid from Morton index m
      for (int b = 0; b < 4; ++b) {
        x += ((m >> (2 * b)) & 1) << b;
        y += ((m >> (2 * b + 1)) & 1) << b;
      }
      x = (x + 0.5) / 16 - 0.5;
      y = (y + 0.5) / 16 - 0.5;
      coords.push_back(x);
      coords.push_back(y);
      cost.push_back(1e-4 * (1 + 1 / (0.1 + 8 * (x * x + y * y))) * spread(rng));
    }
    bytes.assign(256, 4096);
    speed.assign(processors, 1.0);
    owner = block_owners(256, processors);
  }
};

std::vector<std::string> between_step_names() {
  std::vector<std::string> names;
  for (const auto& info : balancer_registry())
    if (info.role == BalancerRole::kBetweenSteps &&
        std::all_of(info.params.begin(), info.params.end(),
                    [](const ParamSpec& p) { return p.default_value.has_value(); }))
      names.push_back(info.name);  // not plugin: its library has no default
  return names;
}

// Steps of fixed costs (times `noise`, a multiplicative jitter of each module's measured cost
// around its true cost); returns the modules moved per step.
std::vector<int> moves_per_step(const std::string& name, int processors, double noise,
                                std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  CurveCluster in(processors, rng);
  const std::vector<double> truth = in.cost;
  std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
  const auto balancer = make_balancer(name, {});  // default parameters and min_gain
  std::vector<int> moved;
  for (int step = 0; step < 40; ++step) {
    for (int m = 0; m < 256; ++m) in.cost[m] = truth[m] * jitter(rng);
    in.step = step;
    const Decision d = balancer->decide(in.view(in.topology));
    int n = 0;
    if (d.act)
      for (int m = 0; m < 256; ++m) n += d.owner[m] != in.owner[m];
    if (d.act) in.owner = d.owner;
    moved.push_back(n);
  }
  return moved;
}

TEST(UnitPlanRealisation, CurveDecomposedClusterStopsMigrating) {
  for (const auto& name : between_step_names())
    for (int processors : {4, 8, 16}) {
      const std::vector<int> moved = moves_per_step(name, processors, 0.0, 5);
      for (int step = 15; step < 40; ++step)
        EXPECT_EQ(moved[step], 0) << name << " P = " << processors << " step " << step;
    }
}

// Measured costs are never exact: a few percent of jitter per module must not set modules
// moving every step (issue 12: 110-210 of 256 a step on nbody). Some moves may follow a
// jitter that really made a processor the bottleneck; thrashing would move dozens a step.
TEST(UnitPlanRealisation, CostJitterOfAFewPercentMovesFewModules) {
  for (const auto& name : between_step_names())
    for (int processors : {4, 8, 16}) {
      const std::vector<int> moved = moves_per_step(name, processors, 0.05, 6);
      int late = 0;
      for (int step = 15; step < 40; ++step) late += moved[step];
      EXPECT_LE(late, 25 * 2) << name << " P = " << processors << ": " << late
                              << " modules moved in the last 25 steps";
    }
}

}  // namespace
}  // namespace lbb
