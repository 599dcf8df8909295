// The static partitioners as registered balancers: found by name, parameters checked, and every
// decision a complete assignment (contiguous where the balancer says so).
#include <gtest/gtest.h>

#include <random>

#include "balancers/balancer.h"
#include "balancers/partition/optimal_chain.h"
#include "core/assignment.h"
#include "core/topology.h"

namespace lbb {
namespace {

const char* const kStaticPartitioners[] = {"optimal_chain_bokhari",
                                           "optimal_chain",
                                           "binary_dissection",
                                           "greedy_probe",
                                           "lpt",
                                           "orb",
                                           "scotch"};

TEST(StaticBalancers, RegisteredAndDecideOnAnyStructure) {
  std::mt19937_64 rng(5);
  std::vector<double> cost(37);
  for (auto& c : cost) c = std::uniform_real_distribution<double>(0.1, 3)(rng);
  const std::vector<std::uint64_t> bytes(cost.size(), 64);
  const std::vector<double> speed = {1, 0.5, 2, 1, 1};
  std::vector<double> coords(2 * cost.size());
  for (auto& x : coords) x = std::uniform_real_distribution<double>(0, 1)(rng);
  const Topology chain(TopologyKind::kChain, static_cast<int>(speed.size()));
  const double optimum = optimal_chain(cost, speed).bottleneck;
  for (const char* name : kStaticPartitioners) {
    const BalancerInfo* info = find_balancer(name, BalancerKind::kStatic);
    ASSERT_NE(info, nullptr) << name;
    const bool chain_method =
        std::string(name) != "lpt" && std::string(name) != "orb" && std::string(name) != "scotch";
    EXPECT_EQ(info->capabilities.contiguous, chain_method) << name;
    auto balancer = make_balancer(name, BalancerKind::kStatic, {});
    for (auto structure :
         {ModuleStructure::kChain, ModuleStructure::kSpatial, ModuleStructure::kIndependent}) {
      LoadView view;
      view.cost = cost;
      view.bytes = bytes;
      view.speed = speed;
      view.topology = &chain;
      view.structure = structure;
      if (structure == ModuleStructure::kSpatial) {
        view.dimensions = 2;
        view.coords = coords;
      }
      const Decision d = balancer->decide(view);
      EXPECT_TRUE(d.act) << name;
      EXPECT_EQ(d.phases, 1) << name;
      EXPECT_FALSE(assignment_error(d.owner, view.modules(), view.processors()).has_value())
          << name;
      if (chain_method) {
        EXPECT_TRUE(is_contiguous_chain(d.owner, view.processors())) << name;
        EXPECT_GE(bottleneck(d.owner, cost, speed), optimum * (1 - 1e-12)) << name;
      }
    }
  }
}

TEST(StaticBalancers, GreedyProbeEpsilonIsAParameter) {
  const BalancerInfo* info = find_balancer("greedy_probe");
  ASSERT_NE(info, nullptr);
  const ParamSpec* epsilon = find_spec(info->params, "epsilon");
  ASSERT_NE(epsilon, nullptr);
  Params bad;
  bad.set("epsilon", -1.0);
  EXPECT_THROW(make_balancer("greedy_probe", bad), ParamError);
  Params coarse;
  coarse.set("epsilon", 0.5);
  const std::vector<double> cost = {2, 6, 2, 2, 1, 1, 2, 2, 2};
  const std::vector<double> speed(4, 1.0);
  LoadView view;
  view.cost = cost;
  view.speed = speed;
  const Decision d = make_balancer("greedy_probe", coarse)->decide(view);
  EXPECT_LE(bottleneck(d.owner, cost, speed), 6.5);
}

TEST(StaticBalancers, RefuseNegativeCosts) {
  const std::vector<double> cost = {1, -1};
  const std::vector<double> speed = {1, 1};
  LoadView view;
  view.cost = cost;
  view.speed = speed;
  for (const char* name : kStaticPartitioners)
    EXPECT_THROW(make_balancer(name, BalancerKind::kStatic, {})->decide(view),
                 std::invalid_argument)
        << name;
}

}  // namespace
}  // namespace lbb
