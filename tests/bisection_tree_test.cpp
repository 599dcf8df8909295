// Horton 1993's multilevel scheme decided as its processors would (bisection_tree.h): sums up the
// tree, cuts down it. Checked against Algorithm 2 written as a loop over levels on the loads every
// earlier level left (the form the paper states), and each cut against the data its host holds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "balancers/between_steps/multilevel.h"
#include "balancers/between_steps/parts/bisection_tree.h"
#include "balancers/between_steps/parts/processor_path.h"

namespace lbb {
namespace {

using Loads = std::vector<std::int64_t>;

// Algorithm 2 level by level: each range's halves summed from the current loads of every
// processor; pairs matched greedily in path order among topology neighbours.
TransferPlan reference_plan(const Loads& loads, std::span<const double> speed,
                            const Topology& topology) {
  const std::vector<int> path = processor_path(topology);
  std::vector<int> position(path.size());
  for (std::size_t k = 0; k < path.size(); ++k) position[path[k]] = static_cast<int>(k);
  TransferPlan plan = empty_plan(loads);
  std::vector<std::pair<int, int>> ranges = {{0, static_cast<int>(path.size())}};
  while (true) {
    std::vector<std::pair<int, int>> halves;
    std::vector<UnitTransfer> transfers;
    for (auto [first, last] : ranges) {
      if (last - first < 2) continue;
      const int middle = first + (last - first + 1) / 2;
      double load1 = 0, load2 = 0, speed1 = 0, speed2 = 0;
      for (int k = first; k < last; ++k) {
        (k < middle ? load1 : load2) += static_cast<double>(plan.final_loads[path[k]]);
        (k < middle ? speed1 : speed2) += speed[path[k]];
      }
      const auto units = static_cast<std::int64_t>(
          std::floor((load2 * speed1 - load1 * speed2) / (speed1 + speed2) + 1e-9));
      std::vector<std::pair<int, int>> pairs;
      std::vector<char> matched(last - middle, 0);
      for (int k = first; k < middle; ++k)
        for (int b : topology.neighbours(path[k])) {
          const int at = position[b];
          if (at < middle || at >= last || matched[at - middle]) continue;
          matched[at - middle] = 1;
          pairs.emplace_back(path[k], b);
          break;
        }
      const std::int64_t magnitude = std::abs(units), count = std::ssize(pairs);
      for (std::int64_t k = 0; k < count; ++k) {
        const std::int64_t share = magnitude / count + (k < magnitude % count ? 1 : 0);
        const auto [a, b] = pairs[k];
        transfers.push_back(units > 0 ? UnitTransfer{b, a, share} : UnitTransfer{a, b, share});
      }
      halves.emplace_back(first, middle);
      halves.emplace_back(middle, last);
    }
    if (halves.empty()) break;
    append_phase(plan, std::move(transfers), true);
    ranges = std::move(halves);
  }
  return plan;
}

bool same_plan(const TransferPlan& a, const TransferPlan& b) {
  if (a.phases.size() != b.phases.size() || a.final_loads != b.final_loads) return false;
  for (std::size_t k = 0; k < a.phases.size(); ++k) {
    const auto& x = a.phases[k].transfers;
    const auto& y = b.phases[k].transfers;
    if (!std::equal(x.begin(), x.end(), y.begin(), y.end(), [](auto& s, auto& t) {
          return s.from == t.from && s.to == t.to && s.units == t.units;
        }))
      return false;
  }
  return true;
}

struct Shape {
  TopologyKind kind;
  int processors;
};
constexpr Shape kShapes[] = {{TopologyKind::kRing, 3},      {TopologyKind::kRing, 8},
                             {TopologyKind::kRing, 13},     {TopologyKind::kChain, 5},
                             {TopologyKind::kMesh2d, 12},   {TopologyKind::kMesh2d, 16},
                             {TopologyKind::kHypercube, 2}, {TopologyKind::kHypercube, 16},
                             {TopologyKind::kComplete, 7},  {TopologyKind::kChain, 1}};

Loads random_loads(std::mt19937_64& rng, int processors) {
  std::uniform_int_distribution<std::int64_t> load(0, 400);
  std::bernoulli_distribution spike(0.2);
  Loads out;
  for (int p = 0; p < processors; ++p) out.push_back(load(rng) * (spike(rng) ? 8 : 1));
  return out;
}

TEST(BisectionTree, SumsUpAndCutsDownGiveAlgorithmTwo) {
  std::mt19937_64 rng(11);
  const MultilevelDiffusion multilevel;
  int moved = 0;
  for (const Shape& shape : kShapes) {
    const Topology topology(shape.kind, shape.processors);
    for (int c = 0; c < 40; ++c) {
      const Loads loads = random_loads(rng, shape.processors);
      std::vector<double> speed;
      for (int p = 0; p < shape.processors; ++p) speed.push_back(rng() % 3 == 0 ? 0.5 : 1.0);
      const TransferPlan want = reference_plan(loads, speed, topology);
      const TransferPlan got = multilevel.plan({loads, speed, &topology, c});
      EXPECT_TRUE(same_plan(want, got))
          << topology_name(shape.kind) << " P=" << shape.processors << " case " << c;
      moved += static_cast<int>(got.units_moved() > 0);
    }
  }
  EXPECT_GT(moved, 300);  // the cases move work, so equal plans say something
}

// Each host holds its own processor's load and what reached it: the right children's sums along
// its left spine on the way up, its inheritance on the way down. On those alone (the full sums
// of nothing else) it decides its cut as the whole plan does.
TEST(BisectionTree, EachHostDecidesOnWhatReachesIt) {
  std::mt19937_64 rng(29);
  int checked = 0, moving = 0;
  for (const Shape& shape : kShapes) {
    const Topology topology(shape.kind, shape.processors);
    const Loads loads = random_loads(rng, shape.processors);
    const std::vector<double> speed(shape.processors, 1.0);
    const BisectionTree tree({loads, speed, &topology, 0}, Bisection::kTopology);
    const auto nodes = tree.nodes();
    const std::vector<std::int64_t> sum = tree.sums(loads);
    std::vector<std::vector<UnitTransfer>> inherited(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].leaf()) continue;
      const CutOutcome want = tree.descend(static_cast<int>(n), sum[nodes[n].left],
                                           sum[nodes[n].right], inherited[n], speed);
      inherited[nodes[n].left] = want.left;
      inherited[nodes[n].right] = want.right;
      std::int64_t left_sum = loads[tree.host(static_cast<int>(n))];
      for (int k = nodes[n].left; !nodes[k].leaf(); k = nodes[k].left)
        left_sum += sum[nodes[k].right];  // received on the way up
      const CutOutcome got =
          tree.descend(static_cast<int>(n), left_sum, sum[nodes[n].right], inherited[n], speed);
      EXPECT_TRUE(std::equal(
          want.moved.begin(), want.moved.end(), got.moved.begin(), got.moved.end(),
          [](auto& a, auto& b) { return a.from == b.from && a.to == b.to && a.units == b.units; }))
          << topology_name(shape.kind) << " P=" << shape.processors << " node " << n;
      // The inheritance holds exactly the transfers with an end in the half.
      for (const UnitTransfer& t : want.right)
        EXPECT_TRUE(tree.covers(nodes[n].right, t.from) || tree.covers(nodes[n].right, t.to));
      ++checked;
      moving += !want.moved.empty();
    }
  }
  EXPECT_GT(checked, 50);
  EXPECT_GT(moving, 25);
}

TEST(BisectionTree, NodesCoverThePathOnceByDepth) {
  const Topology mesh(TopologyKind::kMesh2d, 12);
  const Loads loads(12, 1);
  const std::vector<double> speed(12, 1.0);
  const BisectionTree tree({loads, speed, &mesh, 0}, Bisection::kTopology);
  EXPECT_EQ(tree.depth(), 4);  // ceil(log2 12)
  int leaves = 0;
  for (const BisectionNode& n : tree.nodes()) {
    leaves += n.leaf();
    if (n.leaf()) continue;
    const BisectionNode& l = tree.nodes()[n.left];
    EXPECT_EQ(l.first, n.first);  // a node's host holds its left child
    EXPECT_EQ(tree.nodes()[n.right].first, n.middle);
    EXPECT_LE(std::abs((n.middle - n.first) - (n.last - n.middle)), 1);
  }
  EXPECT_EQ(leaves, 12);
  EXPECT_THROW(tree.descend(static_cast<int>(tree.nodes().size()) - 1, 0, 0, {}, speed),
               std::logic_error);
}

}  // namespace
}  // namespace lbb
