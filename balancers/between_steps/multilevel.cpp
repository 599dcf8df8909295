#include "balancers/between_steps/multilevel.h"

#include <cmath>
#include <utility>

#include "balancers/between_steps/processor_path.h"

namespace lbb {

BalancerInfo MultilevelDiffusion::info() {
  return unit_plan_entry(
      {"multilevel",
       BalancerRole::kBetweenSteps,
       "multi-level diffusion: recursive bisection of the processors, ceil(log2 P) transfer "
       "phases between neighbouring halves (Horton 1993, Algorithm 2)",
       {}},
      +[](const Params&) { return std::make_unique<MultilevelDiffusion>(); });
}

TransferPlan MultilevelDiffusion::plan(const UnitLoads& in) const {
  TransferPlan plan = empty_plan(in.loads);
  const std::vector<int> path = processor_path(*in.topology);
  std::vector<int> position(path.size());
  for (std::size_t k = 0; k < path.size(); ++k) position[path[k]] = static_cast<int>(k);

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
      // As many disjoint neighbouring pairs across the cut as a greedy matching finds.
      std::vector<std::pair<int, int>> pairs;  // (in P1, in P2)
      std::vector<char> matched(in.processors(), 0);
      for (int k = first; k < middle; ++k)
        for (int b : in.topology->neighbours(path[k])) {
          if (position[b] < middle || position[b] >= last || matched[b]) continue;
          matched[b] = 1;
          pairs.emplace_back(path[k], b);
          break;
        }
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
