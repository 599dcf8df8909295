#include "balancers/between_steps/multilevel.h"

#include <cmath>
#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>

#include "balancers/between_steps/processor_path.h"

namespace lbb {

namespace {

constexpr const char* kNeedsGraph =
    "multilevel with bisect: communication needs a communication graph, and this workload gives "
    "none (use bisect: topology)";

}  // namespace

BalancerInfo MultilevelDiffusion::info() {
  BalancerInfo info = unit_plan_entry(
      {"multilevel",
       BalancerRole::kBetweenSteps,
       "multi-level diffusion: recursive bisection of the processors, ceil(log2 P) transfer "
       "phases between neighbouring halves (Horton 1993, Algorithm 2)",
       {string_param("bisect", "topology",
                     "topology: halve a path through the processor topology and move work "
                     "between its neighbours; communication: halve the processor index order "
                     "and move work along the graph the workload's module adjacency induces "
                     "between processors (Horton 1993's communication graph; a workload "
                     "without one is an error)",
                     {"topology", "communication"})}},
      +[](const Params& p) {
        return std::make_unique<MultilevelDiffusion>(
            p.text("bisect") == "communication" ? Bisection::kCommunication : Bisection::kTopology);
      });
  info.needs_communication = [](const Params& p) {
    return p.text("bisect") == "communication" ? std::string(kNeedsGraph) : std::string();
  };
  return info;
}

namespace {

// The order whose contiguous ranges are bisected, and the graph pairs are drawn from first.
struct BisectionGraph {
  std::vector<int> path;
  std::vector<int> position;           // of each processor in path
  const ModuleGraph* links = nullptr;  // null: the topology's neighbours only
};

BisectionGraph bisection_graph(const UnitLoads& in, Bisection bisect) {
  BisectionGraph g;
  if (bisect == Bisection::kCommunication) {
    if (!in.communication) throw std::invalid_argument(kNeedsGraph);
    g.links = in.communication;
    g.path.resize(in.processors());
    std::iota(g.path.begin(), g.path.end(), 0);
  } else {
    g.path = processor_path(*in.topology);
  }
  g.position.resize(g.path.size());
  for (std::size_t k = 0; k < g.path.size(); ++k) g.position[g.path[k]] = static_cast<int>(k);
  return g;
}

// Disjoint pairs (in P1, in P2) across the cut of path[first, last) at middle, matched greedily
// in path order among the given neighbour lists.
template <class Neighbours>
std::vector<std::pair<int, int>> greedy_cut_pairs(const BisectionGraph& g, int first, int middle,
                                                  int last, Neighbours neighbours) {
  std::vector<std::pair<int, int>> pairs;
  std::vector<char> matched(last - middle, 0);  // by position in P2: O(|P2|), not O(P), a cut
  for (int k = first; k < middle; ++k)
    for (int b : neighbours(g.path[k])) {
      if (g.position[b] < middle || g.position[b] >= last || matched[g.position[b] - middle])
        continue;
      matched[g.position[b] - middle] = 1;
      pairs.emplace_back(g.path[k], b);
      break;
    }
  return pairs;
}

std::vector<std::pair<int, int>> cut_pairs(const BisectionGraph& g, const Topology& topology,
                                           int first, int middle, int last) {
  if (g.links) {
    auto pairs =
        greedy_cut_pairs(g, first, middle, last, [&](int p) { return g.links->neighbours(p); });
    if (!pairs.empty()) return pairs;
  }
  return greedy_cut_pairs(g, first, middle, last,
                          [&](int p) { return std::span<const int>(topology.neighbours(p)); });
}

}  // namespace

TransferPlan MultilevelDiffusion::plan(const UnitLoads& in) const {
  TransferPlan plan = empty_plan(in.loads);
  const BisectionGraph g = bisection_graph(in, bisect_);
  const std::vector<int>& path = g.path;
  std::vector<std::pair<int, int>> ranges = {{0, in.processors()}};  // [first, last) of path
  while (true) {
    std::vector<std::pair<int, int>> halves;
    std::vector<UnitTransfer> transfers;
    for (auto [first, last] : ranges) {
      if (last - first < 2) continue;
      const int middle = first + (last - first + 1) / 2;  // | |P1| - |P2| | <= 1
      double load1 = 0, load2 = 0, speed1 = 0, speed2 = 0;
      for (int k = first; k < last; ++k) {
        const auto load = static_cast<double>(plan.final_loads[path[k]]);
        (k < middle ? load1 : load2) += load;
        (k < middle ? speed1 : speed2) += in.speed[path[k]];
      }
      // Units from P2 to P1: floor((L2 |P1| - L1 |P2|) / (|P1| + |P2|)), with speeds for sizes.
      const auto units = static_cast<std::int64_t>(
          std::floor((load2 * speed1 - load1 * speed2) / (speed1 + speed2) + 1e-9));
      // Horton 1993, section 5: the amount is split over as many neighbouring pairs as possible,
      // the first pairs taking the remainder (Table 2, T1 phase 1: 3, 3, 2).
      const auto pairs = cut_pairs(g, *in.topology, first, middle, last);
      const std::int64_t magnitude = std::abs(units);
      const auto count = static_cast<std::int64_t>(pairs.size());
      for (std::int64_t k = 0; k < count && magnitude > 0; ++k) {
        const std::int64_t share = magnitude / count + (k < magnitude % count ? 1 : 0);
        const auto [a, b] = pairs[k];
        transfers.push_back(units > 0 ? UnitTransfer{b, a, share} : UnitTransfer{a, b, share});
      }
      halves.emplace_back(first, middle);
      halves.emplace_back(middle, last);
    }
    if (halves.empty()) break;
    append_phase(plan, std::move(transfers), /*keep_empty=*/true);  // one phase per level
    ranges = std::move(halves);
  }
  return plan;
}

}  // namespace lbb
