#pragma once
// A reading of the yardstick L4 of Hwang & Hong 2001, Kopidakis, Lamari & Zissimopoulos 1997's
// task assignment heuristic, of which Hwang & Hong give only the idea: the sum of execution and
// inter-task communication costs, turned into a maximisation that avoids large communication
// costs and inefficient allocations. Their steps are not in the seed papers, so each choice here
// is open (docs/tree_search.md):
// - gain of task a on processor q: U - ((load_q + E_a) / speed_q + d(f(a), q) (B_a + M_a)), U a
//   constant, so the task goes where its finish plus its own communication is least;
// - tasks in non-increasing order of their hop cost B_a + M_a (the large communication costs are
//   placed first, while their creators still have room), then of E_a, then by index;
// - no distance limit (Hwang & Hong credit L1's advantage over L4 to L1's C_max constraint).
// Ties go to the processor nearer the creator, then to the lower index. With free moves it is
// decreasing fit (L3).
#include <optional>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/level/processor_rings.h"

namespace lbb {

// The reading as a pure function; hop_cost may be empty (moves are free). `rings` of the
// topology, when given, saves building them (P^2 log P) on every call.
std::vector<int> max_gain_fit(std::span<const double> cost, std::span<const double> hop_cost,
                              std::span<const int> creator, std::span<const double> speed,
                              const Topology& topology, const ProcessorRings* rings = nullptr);

class MaxGainFit final : public Balancer {
 public:
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  std::optional<ProcessorRings> rings_;
};

}  // namespace lbb
