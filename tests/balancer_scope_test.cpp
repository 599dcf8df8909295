// The contract behind the MPI executor's message patterns (DecisionScope): a balancer that
// declares a processor decides on its scope alone must give, processor by processor on views
// whose every other load is poisoned, exactly the transfers it gives on the full view.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/decision_scope.h"
#include "balancers/between_steps/parts/transfer_plan.h"
#include "balancers/load_snapshot.h"

namespace lbb {
namespace {

using Loads = std::vector<std::int64_t>;

// One parameter set per choice of each string parameter (random's ideal: global and local).
std::vector<Params> variants(const BalancerInfo& info) {
  std::vector<Params> out{Params{}};
  for (const ParamSpec& spec : info.params)
    for (const std::string& choice : spec.choices) {
      Params p;
      p.set(spec.name, choice);
      out.push_back(p);
    }
  return out;
}

struct Case {
  Loads loads;
  std::vector<double> speed;
  int step = 0;
};

Case random_case(std::mt19937_64& rng, int processors) {
  Case c;
  std::uniform_int_distribution<std::int64_t> load(0, 400);
  std::bernoulli_distribution spike(0.2), slow(0.3);
  for (int p = 0; p < processors; ++p) {
    c.loads.push_back(load(rng) * (spike(rng) ? 8 : 1));
    c.speed.push_back(slow(rng) ? 0.5 : 1.0);
  }
  c.step = static_cast<int>(rng() % 1000);
  return c;
}

// Rows of processors that decided differently on their scope (`declared`) than on the full view;
// `moved`: transfers the full plans made, so that a check of nothing does not pass.
struct Mismatches {
  int rows = 0, moved = 0;
  std::string first;
};

Mismatches check(const UnitLevelBalancer& balancer, DecisionScope declared, int cases,
                 std::uint64_t seed) {
  Mismatches out;
  std::mt19937_64 rng(seed);
  const std::pair<TopologyKind, std::vector<int>> shapes[] = {
      {TopologyKind::kRing, {3, 4, 8, 13}},
      {TopologyKind::kMesh2d, {4, 6, 12, 16}},
      {TopologyKind::kHypercube, {2, 4, 8, 16}},
      {TopologyKind::kChain, {5, 8}},
  };
  for (const auto& [kind, sizes] : shapes)
    for (int processors : sizes) {
      const Topology topology(kind, processors);
      for (int k = 0; k < cases; ++k) {
        const Case c = random_case(rng, processors);
        const TransferPlan full = balancer.plan({c.loads, c.speed, &topology, c.step});
        for (int p = 0; p < processors; ++p) {
          const std::vector<UnitTransfer> want = rows_of(full, p);
          out.moved += static_cast<int>(want.size());
          for (std::int64_t poison : {std::int64_t{0}, std::int64_t{1} << 40, kUnreadLoad}) {
            Loads scoped(processors, poison);
            for (int q : scope_of(declared, topology, p)) scoped[q] = c.loads[q];
            UnitLoads in{scoped, c.speed, &topology, c.step};
            if (declared == DecisionScope::kOwnAndTotal) {
              in.total = 0;
              for (std::int64_t l : c.loads) in.total += l;
            }
            const std::vector<UnitTransfer> got = rows_of(balancer.plan(in), p);
            const bool same =
                std::equal(want.begin(), want.end(), got.begin(), got.end(), [](auto& a, auto& b) {
                  return a.from == b.from && a.to == b.to && a.units == b.units;
                });
            if (same) continue;
            if (out.rows++ == 0)
              out.first = std::string(topology_name(kind)) + " P=" + std::to_string(processors) +
                          " processor " + std::to_string(p) + " poison " + std::to_string(poison);
          }
        }
      }
    }
  return out;
}

// On a random view, per group of `group_size`: modules of the group that the decision on the
// group's view (every other processor's busy time and module costs poisoned) gives another owner
// than the full view's decision does (`rows`), and modules the full decision moves (`moved`).
Mismatches group_mismatches(Balancer& balancer, int group_size, std::mt19937_64& rng) {
  const int processors = 4 + static_cast<int>(rng() % 9), modules = processors * 5;
  const Topology chain(TopologyKind::kChain, processors);
  LoadSnapshot full;
  std::uniform_real_distribution<double> cost(0.1, 2.0), busy(0.5, 8.0);
  for (int m = 0; m < modules; ++m) {
    full.cost.push_back(cost(rng));
    full.bytes.push_back(64);
    full.owner.push_back(static_cast<int>(rng() % processors));
  }
  for (int p = 0; p < processors; ++p) {
    full.speed.push_back(rng() % 3 == 0 ? 0.5 : 1.0);
    full.busy.push_back(busy(rng));
  }
  const Decision want = balancer.decide(full.view(chain));
  Mismatches out;
  for (int m = 0; want.act && m < modules; ++m) out.moved += want.owner[m] != full.owner[m];
  for (int first = 0; first < processors; first += group_size) {
    const auto in_group = [&](int p) { return p >= first && p < first + group_size; };
    for (double poison : {1e-3, 1e3, kUnreadSeconds}) {
      LoadSnapshot scoped = full;
      for (int p = 0; p < processors; ++p)
        if (!in_group(p)) scoped.busy[p] = poison;
      for (int m = 0; m < modules; ++m)
        if (!in_group(full.owner[m])) scoped.cost[m] = poison;
      const Decision got = balancer.decide(scoped.view(chain));
      for (int m = 0; m < modules; ++m) {
        if (!in_group(full.owner[m])) continue;
        const int a = want.act ? want.owner[m] : full.owner[m];
        const int b = got.act ? got.owner[m] : full.owner[m];
        out.rows += a != b;
      }
    }
  }
  return out;
}

TEST(BalancerScope, EveryProcessorDecidesOnItsScopeAsOnTheFullView) {
  std::set<std::string> checked;
  for (const BalancerInfo& info : balancer_registry()) {
    if (!info.has_unit_level()) continue;
    for (const Params& given : variants(info)) {
      const Params params = resolve_params(info.params, given);
      const DecisionScope scope = info.make(params)->scope();
      if (!decides_per_processor(scope)) continue;
      const Mismatches m = check(*info.make_unit_level(params), scope, 40, 17);
      const std::string name = info.name + " (" + std::string(scope_name(scope)) + ")";
      EXPECT_EQ(m.rows, 0) << name << " read outside its scope, first at " << m.first;
      EXPECT_GT(m.moved, 100) << name << ": the cases moved almost nothing";
      checked.insert(name);
    }
  }
  // Franklin & Govindan 1995's random (both ideals) and diffusion are among them.
  EXPECT_TRUE(checked.count("diffusion (neighbours)"));
  EXPECT_TRUE(checked.count("random (neighbours)"));
  EXPECT_TRUE(checked.count("random (own and total)"));
}

TEST(BalancerScope, AReadOutsideTheDeclaredScopeIsCaught) {
  // random's global ideal reads the total of every load: declared to read only its neighbours'
  // (no total given), its processors decide otherwise, and the check says so.
  const BalancerInfo* info = find_balancer("random");
  ASSERT_NE(info, nullptr);
  const auto global = info->make_unit_level(resolve_params(info->params, Params{}));
  EXPECT_GT(check(*global, DecisionScope::kNeighbours, 10, 5).rows, 0);
  // diffusion reads its neighbours' loads: restricted to its own load, it decides otherwise.
  const BalancerInfo* diffusion = find_balancer("diffusion");
  ASSERT_NE(diffusion, nullptr);
  const auto local = diffusion->make_unit_level(resolve_params(diffusion->params, Params{}));
  EXPECT_GT(check(*local, DecisionScope::kOwnAndTotal, 10, 5).rows, 0);
  // GCDLB shares every processor's modules by every rate: checked per group of 2, it is caught.
  Params eager;
  eager.set("profit", 0.0);
  eager.set("move_threshold", 0.0);
  const auto gcdlb = make_balancer("gcdlb", eager);
  std::mt19937_64 rng(3);
  int wrong = 0;
  int moved = 0;
  for (int c = 0; c < 10; ++c) {
    const Mismatches m = group_mismatches(*gcdlb, 2, rng);
    wrong += m.rows;
    moved += m.moved;
  }
  EXPECT_GT(moved, 0);
  EXPECT_GT(wrong, 0);
}

TEST(BalancerScope, RowsMakeTheFullPlanAgain) {
  const Topology ring(TopologyKind::kRing, 6);
  const Loads loads = {90, 10, 10, 60, 0, 30};
  const std::vector<double> speed(6, 1.0);
  const BalancerInfo* info = find_balancer("diffusion");
  ASSERT_NE(info, nullptr);
  const auto diffusion = info->make_unit_level(resolve_params(info->params, Params{}));
  const TransferPlan full = diffusion->plan({loads, speed, &ring, 0});
  std::vector<UnitTransfer> rows;
  for (int p = 0; p < 6; ++p)
    for (const UnitTransfer& t : rows_of(full, p)) rows.push_back(t);
  ASSERT_FALSE(rows.empty());
  const TransferPlan again = plan_of_rows(loads, rows);
  EXPECT_EQ(again.final_loads, full.final_loads);
  EXPECT_EQ(net_transfers(again).size(), net_transfers(full).size());
}

TEST(BalancerScope, EveryGroupDecidesOnItsOwnProcessorsAsOnTheFullView) {
  std::set<std::string> checked;
  std::mt19937_64 rng(23);
  for (const BalancerInfo& info : balancer_registry())
    for (std::int64_t k : {2, 3, 4}) {
      if (std::none_of(info.params.begin(), info.params.end(),
                       [](const ParamSpec& s) { return s.name == "group_size"; }))
        continue;
      Params given;
      given.set("group_size", k);
      given.set("profit", 0.0);
      given.set("move_threshold", 0.0);
      const auto balancer = info.make(resolve_params(info.params, given));
      if (balancer->scope() != DecisionScope::kGroup) continue;
      ASSERT_EQ(balancer->sync_trigger().group_size, k) << info.name;
      Mismatches all;
      for (int c = 0; c < 60; ++c) {
        const Mismatches m = group_mismatches(*balancer, static_cast<int>(k), rng);
        all.rows += m.rows;
        all.moved += m.moved;
      }
      EXPECT_EQ(all.rows, 0) << info.name << " K=" << k << " read outside its group";
      EXPECT_GT(all.moved, 100) << info.name << " K=" << k << ": the cases moved almost nothing";
      checked.insert(info.name);
    }
  EXPECT_EQ(checked, (std::set<std::string>{"lcdlb", "lddlb"}));
}

}  // namespace
}  // namespace lbb
