// Horton 1993's diffusion (Algorithm 1) and multi-level (Algorithm 2) balancers on integer work
// units: the paper's test case T2 and Table 5, phase counts, neighbour-only transfers, speeds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "balancers/between_steps/parts/unit_balance.h"

namespace lbb {
namespace {

using Loads = std::vector<std::int64_t>;

struct HortonCase {
  Topology topology;
  Loads loads;
  std::vector<double> speed;
  HortonCase(TopologyKind kind, Loads l) : topology(kind, static_cast<int>(l.size())), loads(l) {
    speed.assign(loads.size(), 1.0);
  }
  TransferPlan run(const std::string& method) const {
    return plan_units(method, Params{}, {loads, speed, &topology, 0});
  }
};

// T2: 16 processors in a linear array, processor 0 gains 16 units.
HortonCase t2() {
  Loads loads(16, 0);
  loads[0] = 16;
  return HortonCase(TopologyKind::kChain, loads);
}

std::vector<std::vector<std::int64_t>> phase_loads(const TransferPlan& plan) {
  std::vector<std::vector<std::int64_t>> out;
  for (const auto& phase : plan.phases) out.push_back(phase.loads);
  return out;
}

TEST(Multilevel, T2ReachesAllOnesInFourPhasesOfNeighbourTransfers) {
  const TransferPlan plan = t2().run("multilevel");
  ASSERT_EQ(plan.phases.size(), 4u);
  EXPECT_EQ(plan.final_loads, Loads(16, 1));
  for (const auto& phase : plan.phases)
    for (const auto& t : phase.transfers) EXPECT_EQ(std::abs(t.from - t.to), 1);
  // Horton 1993, Table 4: the load vector after each phase (negative: units in transit).
  const std::vector<Loads> table4 = {{16, 0, 0, 0, 0, 0, 0, -8, 8, 0, 0, 0, 0, 0, 0, 0},
                                     {16, 0, 0, -12, 12, 0, 0, -8, 8, 0, 0, -4, 4, 0, 0, 0},
                                     {16, -14, 14, -12, 12, -10, 10, -8, 8, -6, 6, -4, 4, -2, 2, 0},
                                     Loads(16, 1)};
  EXPECT_EQ(phase_loads(plan), table4);
  // Table 2, T2: phase 1 moves 8 units from processor 7 to 8.
  ASSERT_EQ(plan.phases[0].transfers.size(), 1u);
  EXPECT_EQ(plan.phases[0].transfers[0].from, 7);
  EXPECT_EQ(plan.phases[0].transfers[0].to, 8);
  EXPECT_EQ(plan.phases[0].transfers[0].units, 8);
  EXPECT_EQ(plan.phases[3].transfers.size(), 8u);
  EXPECT_DOUBLE_EQ(imbalance(plan.final_loads, t2().speed), 0.0);
}

TEST(HortonDiffusion, T2StopsLocallyBalancedButGloballyImbalanced) {
  const HortonCase c = t2();
  const TransferPlan plan = c.run("diffusion_horton");
  // Horton 1993, Table 3: nine phases, then every neighbour pair differs by at most one unit.
  const std::vector<Loads> table3 = {{8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {8, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {6, 6, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {6, 4, 4, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {5, 5, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {5, 4, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {5, 4, 3, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {5, 4, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {5, 4, 3, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  EXPECT_EQ(phase_loads(plan), table3);
  for (int p = 0; p + 1 < 16; ++p)
    EXPECT_LE(std::abs(plan.final_loads[p] - plan.final_loads[p + 1]), 1);
  EXPECT_GT(imbalance(plan.final_loads, c.speed), 5.0);
}

TEST(HortonBalancers, Table5PhasesAndImbalanceOnLinearArrays) {
  // Horton 1993, Table 5: processor 0 gains 2P units on a linear array of P processors.
  struct Row {
    int processors, diffusion_phases;
    double diffusion_imbalance;
    int multilevel_phases;
  };
  for (const Row& row : {Row{8, 9, 4.9, 3}, Row{16, 18, 9.6, 4}, Row{32, 36, 18.4, 5},
                         Row{64, 76, 32.4, 6}, Row{128, 148, 57.4, 7}}) {
    Loads loads(row.processors, 0);
    loads[0] = 2 * row.processors;
    const HortonCase c(TopologyKind::kChain, loads);
    const TransferPlan diffusion = c.run("diffusion_horton");
    EXPECT_EQ(static_cast<int>(diffusion.phases.size()), row.diffusion_phases) << row.processors;
    EXPECT_NEAR(imbalance(diffusion.final_loads, c.speed), row.diffusion_imbalance, 0.05);
    const TransferPlan multilevel = c.run("multilevel");
    EXPECT_EQ(static_cast<int>(multilevel.phases.size()), row.multilevel_phases);
    EXPECT_DOUBLE_EQ(imbalance(multilevel.final_loads, c.speed), 0.0);
  }
}

TEST(Multilevel, PhasesAreCeilLog2OfProcessorsOnEveryTopology) {
  std::mt19937_64 rng(7);
  for (int p = 8; p <= 128; ++p)
    for (auto kind : {TopologyKind::kChain, TopologyKind::kRing, TopologyKind::kMesh2d,
                      TopologyKind::kHypercube, TopologyKind::kComplete}) {
      if (topology_size_error(kind, p)) continue;
      Loads loads(p);
      for (auto& l : loads) l = static_cast<std::int64_t>(rng() % 50);
      const HortonCase c(kind, loads);
      const TransferPlan plan = c.run("multilevel");
      const int levels = static_cast<int>(std::ceil(std::log2(p)));
      ASSERT_EQ(static_cast<int>(plan.phases.size()), levels) << p << topology_name(kind);
      for (const auto& phase : plan.phases)
        for (const auto& t : phase.transfers)
          ASSERT_TRUE(c.topology.adjacent(t.from, t.to)) << t.from << "->" << t.to;
      // Equal speeds: every processor ends within one unit of every other.
      const auto [lo, hi] = std::minmax_element(plan.final_loads.begin(), plan.final_loads.end());
      EXPECT_LE(*hi - *lo, 1) << p << " " << topology_name(kind);
    }
}

TEST(Multilevel, BalancedLoadsAreProportionalToSpeed) {
  HortonCase c(TopologyKind::kChain, {160, 0, 0, 0, 0, 0, 0, 0});
  c.speed = {1, 2, 1, 4, 2, 2, 3, 1};  // sum 16: the ideal is 10 units per unit of speed
  const TransferPlan plan = c.run("multilevel");
  for (int p = 0; p < 8; ++p) EXPECT_EQ(plan.final_loads[p], 10 * c.speed[p]) << p;

  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const int p = 2 + static_cast<int>(rng() % 40);
    Loads loads(p);
    for (auto& l : loads) l = static_cast<std::int64_t>(rng() % 1000);
    HortonCase r(TopologyKind::kMesh2d, loads);
    for (auto& s : r.speed) s = 0.5 + static_cast<double>(rng() % 8) / 4;
    const TransferPlan plan = r.run("multilevel");
    const auto ideal = balanced_loads(r.loads, r.speed);
    // Each of the ceil(log2 P) levels rounds down by less than one unit.
    for (int q = 0; q < p; ++q)
      EXPECT_LE(std::abs(static_cast<double>(plan.final_loads[q]) - ideal[q]),
                std::ceil(std::log2(p)) + 1)
          << trial;
  }
}

TEST(HortonDiffusion, SpeedsSetTheLocalBalance) {
  HortonCase c(TopologyKind::kChain, {40, 0});
  c.speed = {1, 3};
  EXPECT_EQ(c.run("diffusion_horton").final_loads, (Loads{10, 30}));
}

TEST(HortonBalancers, Table1DiffusionSolutionIsLocallyBalancedOnlyForDiffusion) {
  // Horton 1993, Table 1: "Diff." is locally balanced; the optimum differs by one unit at most.
  const HortonCase c(TopologyKind::kChain, {7, 6, 5, 4, 3, 2});
  EXPECT_TRUE(c.run("diffusion_horton").phases.empty());
  const auto loads = c.run("multilevel").final_loads;
  const auto [lo, hi] = std::minmax_element(loads.begin(), loads.end());
  EXPECT_LE(*hi - *lo, 1);
}

TEST(HortonDiffusion, ConvergesToLocalBalanceOnEveryTopologyWithoutOverdrawing) {
  std::mt19937_64 rng(5);
  const TopologyKind kinds[] = {TopologyKind::kChain, TopologyKind::kRing, TopologyKind::kMesh2d,
                                TopologyKind::kHypercube, TopologyKind::kComplete};
  for (int trial = 0; trial < 300; ++trial) {
    const int p = 2 + static_cast<int>(rng() % 40);
    const TopologyKind kind = kinds[trial % 5];
    if (topology_size_error(kind, p)) continue;
    Loads loads(p);
    for (auto& l : loads) l = static_cast<std::int64_t>(rng() % 500);
    HortonCase c(kind, loads);
    if (trial % 2)
      for (auto& s : c.speed) s = 0.5 + static_cast<double>(rng() % 8) / 4;
    const TransferPlan plan = c.run("diffusion_horton");
    ASSERT_LT(plan.phases.size(), 5000u) << trial;
    for (const auto& phase : plan.phases)
      for (auto l : phase.loads) ASSERT_GE(l, 0);
    const auto& l = plan.final_loads;
    for (int i = 0; i < p; ++i)
      for (int j : c.topology.neighbours(i)) {  // no pair could still move a whole unit
        const double x =
            (static_cast<double>(l[i]) * c.speed[j] - static_cast<double>(l[j]) * c.speed[i]) /
            (c.speed[i] + c.speed[j]);
        ASSERT_LT(x, 1.0 - 1e-9) << trial << " " << topology_name(kind) << " " << i << "," << j;
      }
  }
}

// On a 4-cycle both halves of a difference were paid at once: 0, 10, 0, 10 became 10, 0, 10, 0 and
// back until max_phases (nbody at P = 4 on its 2 x 2 mesh: 100000 phases a decision).
TEST(HortonDiffusion, CyclesOfFourConverge) {
  for (auto kind : {TopologyKind::kRing, TopologyKind::kMesh2d})
    for (const Loads& loads : {Loads{0, 10, 0, 10}, Loads{600, 400, 500, 548}}) {
      const HortonCase c(kind, loads);
      const TransferPlan plan = c.run("diffusion_horton");
      EXPECT_LT(plan.phases.size(), 100u) << topology_name(kind);
      const auto [lo, hi] = std::minmax_element(plan.final_loads.begin(), plan.final_loads.end());
      EXPECT_LE(*hi - *lo, 2) << topology_name(kind);
    }
}

// Literal Algorithm 1 on a chain, written independently: every phase, each pair of neighbours
// whose loads differ by two or more moves floor(difference / 2) from the heavier to the lighter,
// all pairs on the loads at the start of the phase; stop when no pair moves.
std::vector<Loads> literal_algorithm1(Loads l) {
  std::vector<Loads> phases;
  while (true) {
    Loads next = l;
    bool moved = false;
    for (std::size_t i = 0; i + 1 < l.size(); ++i) {
      const std::int64_t half = (l[i] > l[i + 1] ? l[i] - l[i + 1] : l[i + 1] - l[i]) / 2;
      if (half == 0) continue;
      moved = true;
      next[i] += l[i] > l[i + 1] ? -half : half;
      next[i + 1] += l[i] > l[i + 1] ? half : -half;
    }
    if (!moved) return phases;
    phases.push_back(next);
    l = next;
  }
}

TEST(HortonDiffusion, LiteralAlgorithm1OnChainsMatchesAnIndependentImplementation) {
  EXPECT_EQ(phase_loads(HortonCase(TopologyKind::kChain, {0, 10, 0}).run("diffusion_horton")),
            (std::vector<Loads>{{5, 0, 5}, {3, 4, 3}}));  // two phases, not one
  std::mt19937_64 rng(150);
  for (int trial = 0; trial < 150; ++trial) {
    Loads loads(2 + rng() % 15);
    for (auto& l : loads) l = static_cast<std::int64_t>(rng() % (trial % 3 == 0 ? 40 : 12));
    const HortonCase c(TopologyKind::kChain, loads);
    EXPECT_EQ(phase_loads(c.run("diffusion_horton")), literal_algorithm1(loads)) << trial;
  }
}

}  // namespace
}  // namespace lbb
